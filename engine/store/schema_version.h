// The version of the history's schema (PRAGMA user_version) that this build writes, and the rule
// for which versions it can read: one number shared by the store's writer (its last migration,
// schema.cpp) and the read-only history reader (history_reader.h), so the two cannot disagree.
// Constants and a pure function; thread-safe.
#pragma once

#include <QString>

#include "core/status.h"

namespace tunedeck {

// Raise it together with a new step in storeMigrations() (schema.cpp checks that they agree).
inline constexpr int kStoreSchemaVersion = 3;

namespace store {

// Ok for a history this build reads: versions 1 to kStoreSchemaVersion. An older version is read
// as it is (a read-only folder cannot be upgraded): what it lacks reads as empty, e.g. the
// exploits of a history written before they were recorded. Version 0 is no history at all; a
// newer version is refused with both versions named.
inline Status checkReadableSchema(int version) {
    if (version == 0) {
        return Status::invalid(QStringLiteral("not a Tunedeck experiment history (no schema)"));
    }
    if (version > kStoreSchemaVersion) {
        return Status::invalid(
            QStringLiteral("this history was written by a newer Tunedeck (schema version %1; "
                           "this version reads up to %2): open it with a newer Tunedeck")
                .arg(version)
                .arg(kStoreSchemaVersion));
    }
    return Status::ok();
}

}  // namespace store
}  // namespace tunedeck
