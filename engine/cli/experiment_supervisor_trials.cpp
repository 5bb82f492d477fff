// The part of ExperimentSupervisor that answers about one trial of an experiment, running or
// finished: its log (trial_log) and its note (set_trial_note).
#include <fcntl.h>
#include <unistd.h>

#include <QFile>
#include <algorithm>

#include "cli/control_requests.h"
#include "cli/experiment_supervisor.h"
#include "cli/trial_notes.h"
#include "runtime/recovery.h"

namespace tunedeck::cli {

namespace {

constexpr qint64 kLogChunkBytes = 256 * 1024;  // the most of a trial log per answer

// Opens trials/TRIAL/trial.log of `folder` for reading, following no symbolic link on the way:
// on a root engine the experiment's folder is its owner's, who could otherwise point the log at
// any file the server may read. -1 when it cannot.
int openTrialLog(const QString& folder, const QString& trial) {
    int at = ::open(QFile::encodeName(folder).constData(),
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    for (const QByteArray& name : {QByteArray("trials"), QFile::encodeName(trial)}) {
        if (at < 0) {
            return -1;
        }
        const int next =
            ::openat(at, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(at);
        at = next;
    }
    if (at < 0) {
        return -1;
    }
    const int log = ::openat(at, "trial.log", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    ::close(at);
    return log;
}

}  // namespace

void ExperimentSupervisor::trialLog(api::ControlConnection& connection, const api::Request& r) {
    const QString folder = experimentFolder(connection, r);
    if (folder.isEmpty()) {
        return;
    }
    QString badArgument;
    const std::optional<TrialLogRequest> asked = trialLogArgument(r, &badArgument);
    if (!asked) {
        connection.send(api::answerError(r.id, api::code::kBadRequest, badArgument));
        return;
    }
    const int fd = openTrialLog(folder, asked->trial);
    QFile log;
    if (fd < 0 || !log.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        if (fd >= 0) {
            ::close(fd);
        }
        // Not started yet, or it ran on a node whose log stays there: nothing to show so far.
        connection.send(api::answerOk(r.id, {{"text", QString()}, {"offset", 0}, {"size", 0}}));
        return;
    }
    const qint64 size = log.size();
    qint64 offset = asked->offset;
    if (offset > size) {
        offset = 0;  // the log was replaced (a new attempt): from its start again
    }
    log.seek(offset);
    QByteArray chunk = log.read(kLogChunkBytes);
    // Whole lines only while more follows, so a multi-byte character or a line is never cut.
    if (offset + chunk.size() < size) {
        const qsizetype end = chunk.lastIndexOf('\n');
        chunk.truncate(end >= 0 ? end + 1 : chunk.size());
    }
    connection.send(api::answerOk(
        r.id,
        {{"text", QString::fromUtf8(chunk)}, {"offset", offset + chunk.size()}, {"size", size}}));
}

ExperimentSupervisor::Child* ExperimentSupervisor::runningChild(const QString& name) const {
    const auto child = std::find_if(children_.begin(), children_.end(),
                                    [&](const auto& c) { return c->started && c->name == name; });
    return child == children_.end() ? nullptr : child->get();
}

void ExperimentSupervisor::setTrialNote(api::ControlConnection& connection, const api::Request& r) {
    const QJsonValue note = r.arguments.value("note");
    if (r.text("trial").isEmpty() || !note.isString()) {
        connection.send(api::answerError(
            r.id, api::code::kBadRequest,
            QStringLiteral("set_trial_note needs \"trial\" and \"note\" (a string; empty: no "
                           "note)")));
        return;
    }
    // A run of this server owns its history: the note goes through it (run_control.cpp).
    if (runningChild(r.text("experiment")) != nullptr) {
        order(connection, r);
        return;
    }
    const QString folder = experimentFolder(connection, r);
    if (folder.isEmpty()) {
        return;
    }
    if (const Status s = recordTrialNote(folder, r.text("trial"), note.toString()); !s) {
        connection.send(api::answerError(
            r.id,
            s.code() == Status::Code::NotFound ? api::code::kNotFound : api::code::kBadRequest,
            s.message()));
        return;
    }
    connection.send(api::answerOk(r.id, {}));
}

}  // namespace tunedeck::cli
