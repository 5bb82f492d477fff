// The code version of a run: what the trainable's working folder held when `run` started, kept
// in the experiment folder so `rerun` can re-create it (issue 22, "every run can be re-created
// from its record"). In a git work tree: the commit, branch and dirty flag, the diff against the
// commit (code/diff.patch) and the untracked files under a size limit (code/untracked/); in any
// other folder: a content hash of the files a cluster run copies to its nodes. Written once, at
// the start of a run, as code/version.json (temp file, fsync, rename). Main thread; runs git.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "core/code_version_text.h"
#include "core/status.h"

namespace tunedeck::cli {

// Tuning constants of what a run keeps.
// An untracked file larger than this is listed, not copied (data sets, model weights).
inline constexpr qint64 kUntrackedFileLimit = 1 << 20;
// Copies of untracked files stop at this total; the rest are listed as skipped.
inline constexpr qint64 kUntrackedTotalLimit = 16 << 20;
// A folder that is not a git repository is hashed only up to these sizes (a working folder of
// $HOME, or one holding a data set, would take minutes); beyond them no hash is recorded.
inline constexpr int kHashFileLimit = 20000;
inline constexpr qint64 kHashByteLimit = qint64(1) << 30;
// git gets this long per command before the capture gives up (a hung credential helper).
inline constexpr int kGitTimeoutMs = 30000;

// Records the code of `workingDir` in `experimentDir`/code/. `excluded` are folders under
// workingDir that are not code (the results root when it lies inside). A folder git does not
// know is hashed; a failure to record is returned, and the caller decides (run warns).
Status recordCodeVersion(const QString& workingDir, const QString& experimentDir,
                         const QStringList& excluded, QJsonObject* version);

// code/version.json of an experiment folder; empty when the run did not record one.
QJsonObject readCodeVersion(const QString& experimentDir);

using tunedeck::codeVersionText;  // the one line for people (core/code_version_text.h)

// The SHA-256 of the files under `folder` as a cluster run copies them (sorted relative paths
// and contents; __pycache__ folders and the `excluded` ones left out): "sha256:<hex>"; empty
// beyond the limits above.
QString contentHash(const QString& folder, const QStringList& excluded, int* files = nullptr);

// What the symbolic link `path` says, as written (not resolved); empty when it is none.
QString linkText(const QString& path);

}  // namespace tunedeck::cli
