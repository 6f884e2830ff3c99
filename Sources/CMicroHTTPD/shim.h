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

/* The request target as received, before libmicrohttpd splits its query in place (it writes NULs over '?',
   '&' and '='). Called with the target as a C string that ends where the target ends, unless the target
   itself holds a NUL byte. The answer becomes the request's first `con_cls`, a tag (low bit set, so never an
   object pointer): bit 1 says the target holds a byte below 0x21 or 0x7F, the bits above bit 1 hold the
   target's length up to its first NUL. fs_mhd_head_problem compares that length with where the HTTP
   version starts. */
static void *fs_mhd_uri_log(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    size_t length = 0;
    uintptr_t control = 0;
    for (; uri[length] != 0; length++) {
        unsigned char byte = (unsigned char)uri[length];
        if (byte < 0x21 || byte == 0x7F) control = 1;
    }
    return (void *)(((uintptr_t)length << 2) | (control << 1) | 1);
}

/* Whether `tag` is a value fs_mhd_uri_log made (not an object). */
static inline int fs_mhd_is_uri_tag(const void *tag) { return ((uintptr_t)tag & 1) != 0; }

/* Whether the bytes [from, to) are 1 or 2 NULs: a line end (LF, or CR LF) libmicrohttpd overwrote. */
static inline int fs_mhd_is_line_end(const char *from, const char *to) {
    if (to - from < 1 || to - from > 2) return 0;
    for (const char *p = from; p < to; p++)
        if (*p != 0) return 0;
    return 1;
}

struct fs_mhd_head_scan {
    const char *previous_end;
    int problem;
};

/* Walks the header fields in the order received: each must start right after the previous line's end (a
   NUL inside a value makes libmicrohttpd's copy of it shorter, and leaves bytes between), its name must be
   a token without control bytes or spaces, and its value must hold no control byte but HTAB. */
static enum MHD_Result fs_mhd_scan_field(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                         const char *value, size_t value_size) {
    (void)kind;
    struct fs_mhd_head_scan *scan = cls;
    if (value == NULL || !fs_mhd_is_line_end(scan->previous_end, key)) {
        scan->problem = 2;
        return MHD_NO;
    }
    for (size_t i = 0; i < key_size; i++) {
        unsigned char byte = (unsigned char)key[i];
        if (byte < 0x21 || byte == 0x7F) {
            scan->problem = 2;
            return MHD_NO;
        }
    }
    /* The colon (overwritten with a NUL), then the optional whitespace libmicrohttpd skipped. */
    const char *p = key + key_size;
    if (value < p + 1 || *p != 0) {
        scan->problem = 2;
        return MHD_NO;
    }
    for (p++; p < value; p++) {
        if (*p != ' ' && *p != '\t') {
            scan->problem = 2;
            return MHD_NO;
        }
    }
    for (size_t i = 0; i < value_size; i++) {
        unsigned char byte = (unsigned char)value[i];
        if ((byte < 0x20 && byte != '\t') || byte == 0x7F) {
            scan->problem = 2;
            return MHD_NO;
        }
    }
    scan->previous_end = value + value_size;
    return MHD_YES;
}

/* Whether the request head libmicrohttpd parsed is exactly what was sent, without NUL or other control bytes.
   libmicrohttpd 0.9.75 parses the head in place and hands out C strings, so a NUL byte in the target or a
   field value silently cuts what the handler sees (`GET /app.js\0.html` reads as `/app.js`). The strings all
   point into one buffer, in the order received, so the bytes between them must be exactly what the parser
   overwrote: the space after the method (and any extra spaces), the space before the version, each line end,
   each colon and the whitespace after it. Call it on the access handler's first call with its `method`,
   `url`, `version` and the tag fs_mhd_uri_log left in `con_cls`.
   Returns 0 when clean, 1 for a target holding a NUL, a control byte or a space, 2 for a malformed header
   field. One case stays invisible: a NUL just before a bare LF looks like a CR LF line end. */
static inline int fs_mhd_head_problem(struct MHD_Connection *connection, const char *method, const char *url,
                                      const char *version, const void *uri_tag) {
    if (!fs_mhd_is_uri_tag(uri_tag)) return 1;
    uintptr_t tag = (uintptr_t)uri_tag;
    if ((tag & 2) != 0) return 1;
    size_t target_length = tag >> 2;
    size_t method_length = strlen(method);
    /* The method, the NUL that was its space, any further spaces, then the target. */
    if (url < method + method_length + 1 || method[method_length] != 0) return 1;
    for (const char *p = method + method_length + 1; p < url; p++)
        if (*p != ' ') return 1;
    /* The target ends where the version's space was; a NUL inside the target ended the C string earlier. */
    if (version < url || (size_t)(version - url) != target_length + 1) return 1;
    const union MHD_ConnectionInfo *size = MHD_get_connection_info(connection,
                                                                   MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (size == NULL) return 2;
    struct fs_mhd_head_scan scan = {version + strlen(version), 0};
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, fs_mhd_scan_field, &scan);
    if (scan.problem != 0) return scan.problem;
    /* The last line's end, then the empty line's. */
    const char *end = method + size->header_size;
    if (end - scan.previous_end < 2 || end - scan.previous_end > 4) return 2;
    for (const char *p = scan.previous_end; p < end; p++)
        if (*p != 0) return 2;
    return 0;
}

/* Called when a connection starts and when it closes (`closed` 1); `socket_context` is the connection's own
   slot for the caller's record. The socket is still open during the closing call. */
typedef void (*fs_mhd_connection_callback)(void *cls, struct MHD_Connection *connection, void **socket_context,
                                           int closed);

struct fs_mhd_connection_notifier {
    fs_mhd_connection_callback callback;
    void *cls;
};

static void fs_mhd_notify_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                                     enum MHD_ConnectionNotificationCode code) {
    struct fs_mhd_connection_notifier *notifier = cls;
    notifier->callback(notifier->cls, connection, socket_context, code == MHD_CONNECTION_NOTIFY_CLOSED);
}

/* Starts a daemon listening on `address` (IPv4 or IPv6 by its family) with the access handler and
   request-completed callback sharing `cls`. `thread_pool_size` 0 or 1 means one polling thread;
   `per_address_limit` 0 means no per-address cap. `notifier` must live until the daemon stops. */
static inline struct MHD_Daemon *fs_mhd_start(unsigned int flags, const struct sockaddr *address,
                                              MHD_AccessHandlerCallback handler,
                                              MHD_RequestCompletedCallback completed, void *cls,
                                              struct fs_mhd_connection_notifier *notifier,
                                              unsigned int thread_pool_size, unsigned int connection_timeout,
                                              unsigned int connection_limit, unsigned int per_address_limit,
                                              size_t connection_memory_limit, unsigned int listen_backlog) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, fs_mhd_notify_connection, notifier,
                            MHD_OPTION_URI_LOG_CALLBACK, fs_mhd_uri_log, NULL,
                            MHD_OPTION_UNESCAPE_CALLBACK, fs_mhd_keep_escaped, NULL,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
                            MHD_OPTION_END);
}

/* The socket of a connection, or -1. */
static inline int fs_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The record the connection callback stored for a connection, or NULL. */
static inline void *fs_mhd_connection_record(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* The port the daemon is bound to (useful after binding port 0), or 0. */
static inline uint16_t fs_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The peer address of a connection, or NULL. */
static inline const struct sockaddr *fs_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}
