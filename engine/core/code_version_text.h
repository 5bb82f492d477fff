// The one line that tells people which code a run used, from its record (code/version.json, made
// by the engine's cli/code_version.h): `show`, `best`, `rerun` and the app's folder bar print the
// same words. Pure; thread-safe.
#pragma once

#include <QJsonObject>
#include <QString>

namespace tunedeck {

// "git 1a2b3c4d5e6f on main, dirty (diff 2154 bytes, 1 untracked file kept)", or
// "files sha256:0f3e... (12 files, not a git repository)"; empty for an empty record.
QString codeVersionText(const QJsonObject& version);

}  // namespace tunedeck
