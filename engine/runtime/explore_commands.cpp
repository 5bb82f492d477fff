#include "runtime/explore_commands.h"

#include <grp.h>
#include <unistd.h>

#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>
#include <optional>
#include <string>
#include <utility>

#include "checkpoint/file_identity.h"

namespace tunedeck {

namespace {

// The experiment's owner when this engine acts for another user; why it cannot, if it cannot.
std::optional<checkpoint::FileIdentity> owner(QString* why) {
    std::string failure;
    std::optional<checkpoint::FileIdentity> identity = checkpoint::ownerFromEnvironment(&failure);
    if (!failure.empty()) {
        *why = QString::fromStdString(failure);
    }
    return identity;
}

}  // namespace

ExploreCommands::ExploreCommands(QString workingDir, QMap<QString, QString> env, Done done,
                                 QObject* parent)
    : QObject(parent),
      workingDir_(std::move(workingDir)),
      env_(std::move(env)),
      done_(std::move(done)) {}

ExploreCommands::~ExploreCommands() {
    for (auto& [id, run] : runs_) {
        run.process->disconnect(this);
        run.process->kill();
        run.process->waitForFinished(1000);
    }
}

void ExploreCommands::run(const QString& trialId, const QStringList& command,
                          const QJsonObject& config) {
    if (auto it = runs_.find(trialId); it != runs_.end()) {
        it->second.process->kill();
        retire(it->second);
        runs_.erase(it);
    }
    QString why;
    const std::optional<checkpoint::FileIdentity> as = owner(&why);
    if (!why.isEmpty()) {
        done_(trialId, {}, QStringLiteral("cannot run as the experiment's owner: %1").arg(why));
        return;
    }
    Run& run = runs_[trialId];
    run.process = std::make_unique<QProcess>();
    run.timer = std::make_unique<QTimer>();
    QProcess& process = *run.process;
    process.setProgram(command.first());
    process.setArguments(command.mid(1));
    process.setWorkingDirectory(workingDir_);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (auto it = env_.begin(); it != env_.end(); ++it) {
        environment.insert(it.key(), it.value());
    }
    environment.insert(QStringLiteral("TUNEDECK_TRIAL_ID"), trialId);
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    if (as) {
        const uid_t uid = as->uid;
        const gid_t gid = as->gid;
        const std::vector<gid_t> groups = as->groups;
        process.setChildProcessModifier([uid, gid, groups] {
            if (::setgroups(groups.size(), groups.data()) != 0 || ::setgid(gid) != 0 ||
                ::setuid(uid) != 0) {
                ::_exit(126);
            }
        });
    }
    connect(&process, &QProcess::errorOccurred, this, [this, trialId](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            const auto it = runs_.find(trialId);
            finish(trialId,
                   QStringLiteral("it could not start (%1)")
                       .arg(it != runs_.end() ? it->second.process->errorString() : QString()));
        }
    });
    connect(
        &process, &QProcess::finished, this,
        [this, trialId](int code, QProcess::ExitStatus status) {
            const auto it = runs_.find(trialId);
            if (it == runs_.end()) {
                return;
            }
            QProcess& p = *it->second.process;
            const QByteArray out = p.readAllStandardOutput();
            const QString err = QString::fromUtf8(p.readAllStandardError()).trimmed().right(400);
            if (status != QProcess::NormalExit || code != 0) {
                finish(trialId,
                       QStringLiteral("it exited with %1%2")
                           .arg(status == QProcess::NormalExit ? QStringLiteral("code %1").arg(code)
                                                               : QStringLiteral("a crash"),
                                err.isEmpty() ? QString() : QStringLiteral(": ") + err));
                return;
            }
            QJsonParseError parse;
            const QJsonDocument doc = QJsonDocument::fromJson(out.trimmed(), &parse);
            if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
                finish(trialId, QStringLiteral("it printed no JSON object (%1)")
                                    .arg(parse.error != QJsonParseError::NoError
                                             ? parse.errorString()
                                             : QStringLiteral("not an object")));
                return;
            }
            const QJsonObject config = doc.object();
            retire(it->second);
            runs_.erase(it);
            done_(trialId, config, {});
        });
    connect(&process, &QProcess::readyReadStandardOutput, this, [this, trialId] {
        const auto it = runs_.find(trialId);
        if (it != runs_.end() && it->second.process->bytesAvailable() > kMostOutputBytes) {
            it->second.process->kill();  // finished reports it
        }
    });
    run.timer->setSingleShot(true);
    connect(run.timer.get(), &QTimer::timeout, this, [this, trialId] {
        finish(trialId, QStringLiteral("it ran past %1 s").arg(kTimeoutMs / 1000));
    });
    run.timer->start(kTimeoutMs);
    process.start();
    process.write(QJsonDocument(config).toJson(QJsonDocument::Compact) + '\n');
    process.closeWriteChannel();
}

void ExploreCommands::finish(const QString& trialId, const QString& error) {
    const auto it = runs_.find(trialId);
    if (it == runs_.end()) {
        return;
    }
    it->second.process->kill();
    retire(it->second);
    runs_.erase(it);
    done_(trialId, {}, error);
}

void ExploreCommands::retire(Run& run) {
    // Deleted later: this may be inside one of their signals.
    run.process->disconnect(this);
    run.timer->disconnect(this);
    run.timer->stop();
    run.process.release()->deleteLater();
    run.timer.release()->deleteLater();
}

}  // namespace tunedeck
