#ifndef GROUPSIM_CSQLITE_SHIM_H
#define GROUPSIM_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions; these wrap the few that SharedStore needs.

/// `sqlite3_db_config` for the integer-flag options (e.g. SQLITE_DBCONFIG_DEFENSIVE).
static inline int groupsim_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

/// SQLITE_TRANSIENT is a macro over a function-pointer cast, which Swift does not import.
static inline sqlite3_destructor_type groupsim_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
