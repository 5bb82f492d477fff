// The store's schema and its migrations, versioned with PRAGMA user_version, and the settings
// every connection runs with. Functions act on the connection they are given (caller's thread).
#pragma once

#include <sqlite3.h>

#include <vector>

#include "core/status.h"

namespace tunedeck::store {

struct Migration {
    int version;  // user_version once this step is applied; steps are numbered 1, 2, 3, ...
    const char* sql;
};

// The store's migrations, oldest first; the last one's version is kStoreSchemaVersion.
const std::vector<Migration>& storeMigrations();

Status readSchemaVersion(sqlite3* db, int* version);

// Upgrades the database step by step, each step in its own transaction together with its
// user_version, so an interrupted upgrade leaves a database at one of the known versions.
// A database newer than the last step is refused (InvalidArgument) and left untouched.
Status migrateSchema(sqlite3* db, const std::vector<Migration>& migrations);

// WAL, synchronous=NORMAL, foreign keys, busy timeout (see schema.cpp for why).
Status configureWriteConnection(sqlite3* db);
Status configureReadConnection(sqlite3* db);

}  // namespace tunedeck::store
