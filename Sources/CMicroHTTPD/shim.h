#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_daemon_info); these shims fix the
   argument lists. Prefix: fs_mhd_. */

/* Leaves URLs and query arguments percent-encoded, so the Swift router decodes each path segment itself and
   can tell "%2F" from "/". MHD unescapes in place; returning the unchanged length keeps the text. */
static size_t fs_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

/* Starts a daemon listening on `address` (IPv4 or IPv6 by its family) with the access handler and
   request-completed callback sharing `cls`. `thread_pool_size` 0 or 1 means one polling thread. */
static inline struct MHD_Daemon *fs_mhd_start(unsigned int flags, const struct sockaddr *address,
                                              MHD_AccessHandlerCallback handler,
                                              MHD_RequestCompletedCallback completed, void *cls,
                                              unsigned int thread_pool_size, unsigned int connection_timeout,
                                              unsigned int connection_limit, size_t connection_memory_limit,
                                              unsigned int listen_backlog) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_UNESCAPE_CALLBACK, fs_mhd_keep_escaped, NULL,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
                            MHD_OPTION_END);
}

/* The port the daemon is bound to (useful after binding port 0), or 0. */
static inline uint16_t fs_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The daemon's listening socket, or -1. */
static inline int fs_mhd_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info ? (int)info->listen_fd : -1;
}

/* The peer address of a connection, or NULL. */
static inline const struct sockaddr *fs_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}
