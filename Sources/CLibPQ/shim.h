#include <libpq-fe.h>

/// The error field codes are character macros Swift does not import (libpq-fe.h, PQresultErrorField).
static inline int cpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int cpq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
