#include "cli/experiment_supervisor.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMetaObject>
#include <QProcessEnvironment>
#include <QUuid>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "api/problems_json.h"
#include "api/run_order.h"
#include "api/server_access.h"
#include "checkpoint/checkpoint_files.h"
#include "checkpoint/file_system.h"
#include "cli/control_requests.h"
#include "cli/history_view.h"
#include "cli/output_formats.h"
#include "config/problem_list.h"
#include "core/events.h"
#include "core/folder_name.h"
#include "core/searcher.h"
#include "runtime/install_layout.h"
#include "runtime/recovery.h"
#include "runtime/resource_check.h"
#include "tunedeck/version.h"

namespace tunedeck::cli {

namespace {

constexpr int kFeedIntervalMs = 100;
constexpr int kFeedBatch = 2000;                      // events per subscription per round
constexpr qint64 kMaxBacklogBytes = 8 * 1024 * 1024;  // a slow reader is fed no more
constexpr int kStderrTailLines = 20;
constexpr int kStartTimeoutMs = 120 * 1000;         // from launch to the child's "started"
constexpr std::int64_t kValidatePreviewTrials = 5;  // configs in the answer of `validate`
// Validations that run at once, each on a thread of its own: a file at the input limits loads in
// well under a second, and two leave the rest of the machine to the loop and the experiments.
constexpr int kValidationsAtOnce = 2;

// A trial's resources this machine cannot give, as a problem of resources_per_trial.
// checkResourcesFit (runtime/resource_check.h) answers a Status whose message it starts with
// that key's place and name; the rest is the reason.
Problem resourcesProblem(const ExperimentSpec& spec, const Status& fit) {
    const QString key = QStringLiteral("resources_per_trial");
    const SourceLocation at = spec.locationOf(key);
    const QString written = at.toString() + QStringLiteral(": ") + key + QStringLiteral(": ");
    if (!fit.message().startsWith(written)) {
        return {{}, QString(), fit.message()};
    }
    return {at, key, fit.message().mid(written.size())};
}

// Why the server will not read the file a request names by `path` for `caller`, or empty when
// it will. Problems quote what they read: a file only the server may read (/etc/shadow) would be
// shown line by line. So a file is read for a client only when every user of the machine may
// read it and the caller could reach it themselves; any other is sent as text ("yaml").
QString unreadablePathProblem(const api::Request& r, const Caller& caller) {
    if (!r.arguments.contains("path")) {
        return {};
    }
    struct stat info {};
    const QByteArray path = QFile::encodeName(r.text("path"));
    if (::stat(path.constData(), &info) == 0 &&
        (!S_ISREG(info.st_mode) || (info.st_mode & S_IROTH) == 0 ||
         !api::callerMayRead(caller, r.text("path")))) {
        return QStringLiteral(
                   "%1 is not a file every user of this machine may read: the server "
                   "reads only such files for a client (send its text as \"yaml\" "
                   "instead)")
            .arg(r.text("path"));
    }
    return {};
}

// What `validate` answers for `r`. Reads files and may start the agent (a GPU check), so it
// runs on the validation pool, never on the event loop; it touches nothing of the supervisor.
QJsonObject validationAnswer(const api::Request& r, const QString& resultsRoot,
                             const Caller& caller) {
    if (const QString problem = unreadablePathProblem(r, caller); !problem.isEmpty()) {
        QJsonObject answer = api::validationProblems({{{}, QString(), problem}});
        answer.insert("valid", false);
        return api::answerOk(r.id, answer);
    }
    LoadResult<ExperimentSpec> loaded = loadRequestedExperiment(r, resultsRoot);
    // GPUs this machine cannot give are refused here, as `tunedeck-engine validate` does. Asking
    // its agent takes a child process, so only experiments that want GPUs pay for it.
    if (loaded && loaded.spec->resourcesPerTrial.gpu > 0) {
        if (const Status fit = checkResourcesFit(*loaded.spec, workerBinaryPath()); !fit) {
            loaded.problems.insert(loaded.problems.begin(), resourcesProblem(*loaded.spec, fit));
            loaded.spec.reset();
        }
    }
    QJsonObject answer = api::validationProblems(loaded.problems);
    if (!loaded) {
        answer.insert("valid", false);
        return api::answerOk(r.id, answer);
    }
    const ExperimentSpec& spec = *loaded.spec;
    const std::unique_ptr<Searcher> searcher = makeSearcher(spec);
    const std::optional<std::int64_t> total = searcher->totalTrials();
    // The first configs the run would start with (the same seed and searcher), for the editor.
    QJsonArray preview;
    for (std::int64_t i = 0; i < kValidatePreviewTrials; ++i) {
        const Suggestion next = searcher->suggest(trialIdForIndex(i));
        if (next.kind != Suggestion::Kind::Config) {
            break;
        }
        preview.append(next.config);
    }
    answer.insert("valid", true);
    answer.insert("preview", preview);
    answer.insert("name", spec.name);
    answer.insert("parameters", qint64(spec.searchSpace.flatDomains().size()));
    answer.insert("search", spec.search.name);
    answer.insert("scheduler", spec.scheduler.name);
    answer.insert("trials", total ? QJsonValue(qint64(*total)) : QJsonValue());
    return api::answerOk(r.id, answer);
}

}  // namespace

ExperimentSupervisor::ExperimentSupervisor(QString resultsRoot, QString engineBinary,
                                           SlotBroker* broker, QObject* parent)
    : QObject(parent),
      resultsRoot_(std::move(resultsRoot)),
      engineBinary_(std::move(engineBinary)),
      broker_(broker),
      owners_(resultsRoot_, api::engineUser().user) {
    validations_.setMaxThreadCount(kValidationsAtOnce);
    feedTimer_.setInterval(kFeedIntervalMs);
    connect(&feedTimer_, &QTimer::timeout, this, &ExperimentSupervisor::feed);
}

ExperimentSupervisor::~ExperimentSupervisor() {
    for (auto& child : children_) {
        child->process->disconnect(this);
    }
}

void ExperimentSupervisor::handle(api::ControlConnection& connection, const api::Request& r) {
    using Handler = void (ExperimentSupervisor::*)(api::ControlConnection&, const api::Request&);
    const std::pair<const QString*, Handler> handlers[] = {
        {&api::op::kHello, &ExperimentSupervisor::hello},
        {&api::op::kValidate, &ExperimentSupervisor::validate},
        {&api::op::kList, &ExperimentSupervisor::list},
        {&api::op::kStart, &ExperimentSupervisor::start},
        {&api::op::kResume, &ExperimentSupervisor::resume},
        {&api::op::kStop, &ExperimentSupervisor::order},
        {&api::op::kPause, &ExperimentSupervisor::order},
        {&api::op::kStopTrial, &ExperimentSupervisor::order},
        {&api::op::kPauseTrial, &ExperimentSupervisor::order},
        {&api::op::kResumeTrial, &ExperimentSupervisor::order},
        {&api::op::kSubscribe, &ExperimentSupervisor::subscribe},
        {&api::op::kUnsubscribe, &ExperimentSupervisor::unsubscribe},
        {&api::op::kBest, &ExperimentSupervisor::report},
        {&api::op::kExport, &ExperimentSupervisor::report},
        {&api::op::kTrialLog, &ExperimentSupervisor::trialLog},
        {&api::op::kQueue, &ExperimentSupervisor::queue},
        {&api::op::kSetMaxWorkers, &ExperimentSupervisor::order},
        {&api::op::kSetLimits, &ExperimentSupervisor::order},
        {&api::op::kSetTrialNote, &ExperimentSupervisor::setTrialNote},
        {&api::op::kDelete, &ExperimentSupervisor::deleteExperiment},
    };
    for (const auto& [name, handler] : handlers) {
        if (r.op == *name) {
            (this->*handler)(connection, r);
            return;
        }
    }
    connection.send(api::answerError(r.id, api::code::kUnknownOp,
                                     QStringLiteral("unknown op '%1'").arg(r.op.left(40))));
}

void ExperimentSupervisor::hello(api::ControlConnection& connection, const api::Request& r) {
    connection.send(api::answerOk(r.id, {{"api", api::kControlApiVersion},
                                         {"events", events::kEventSchemaVersion},
                                         {"engine", QStringLiteral(TUNEDECK_VERSION)},
                                         {"results", resultsRoot_},
                                         {"user", connection.caller().user},
                                         {"admin", connection.caller().admin}}));
}

void ExperimentSupervisor::validate(api::ControlConnection& connection, const api::Request& r) {
    // Loading a large file took seconds, and every other client waited for the loop meanwhile.
    connection.holdRequests();
    validations_.start(
        [this, to = QPointer(&connection), r, root = resultsRoot_, caller = connection.caller()] {
            const QJsonObject answer = validationAnswer(r, root, caller);
            QMetaObject::invokeMethod(
                this,
                [to, answer] {
                    if (to) {
                        to->send(answer);
                        to->releaseRequests();
                    }
                },
                Qt::QueuedConnection);
        });
}

void ExperimentSupervisor::list(api::ControlConnection& connection, const api::Request& r) {
    QJsonArray experiments;
    for (const ExperimentSummary& e : summarizeExperiments(resultsRoot_)) {
        const QString owner = owners_.ownerOf(e.folderName);
        if (!mayActOn(connection.caller(), owner)) {
            continue;  // another user's: not even its name is shown
        }
        const bool running =
            std::any_of(children_.begin(), children_.end(),
                        [&](const auto& child) { return child->name == e.folderName; });
        experiments.append(QJsonObject{{"experiment", e.folderName},
                                       {"status", e.status},
                                       {"created_at", e.createdAt},
                                       {"trials", e.trials},
                                       {"errors", e.errors},
                                       {"best", e.best},
                                       {"owner", owner},
                                       {"served", running}});
    }
    connection.send(api::answerOk(r.id, {{"experiments", experiments}}));
}

void ExperimentSupervisor::start(api::ControlConnection& connection, const api::Request& r) {
    QString problem = unreadablePathProblem(r, connection.caller());
    const QString owner =
        problem.isEmpty() ? ownerFor(connection.caller(), r.text("user"), &problem) : QString();
    if (!problem.isEmpty()) {
        connection.send(api::answerError(r.id, api::code::kForbidden, problem));
        return;
    }
    // Loaded off the event loop, as `validate` is, on the same bounded pool: a file at the input
    // limits takes a while, and every other client waited for it.
    connection.holdRequests();
    validations_.start([this, to = QPointer(&connection), r, owner, root = resultsRoot_] {
        auto loaded =
            std::make_shared<LoadResult<ExperimentSpec>>(loadRequestedExperiment(r, root));
        QMetaObject::invokeMethod(
            this,
            [this, to, r, owner, loaded] {
                if (to) {
                    startLoaded(*to, r, owner, *loaded);
                    to->releaseRequests();
                }
            },
            Qt::QueuedConnection);
    });
}

void ExperimentSupervisor::startLoaded(api::ControlConnection& connection, const api::Request& r,
                                       const QString& owner,
                                       const LoadResult<ExperimentSpec>& loaded) {
    if (!loaded) {
        connection.send(api::answerInvalidSpec(r.id, loaded.errors()));
        return;
    }
    QStringList arguments{QStringLiteral("run")};
    if (r.arguments.contains("path")) {
        arguments << QFileInfo(r.text("path")).absoluteFilePath();
    } else {
        // The text goes to a file of the results root; --as keeps its relative paths where the
        // client meant them.
        // Only the server reads them: they are the users' configs.
        const QString submitted = resultsRoot_ + QStringLiteral("/.submitted");
        ::mkdir(QFile::encodeName(submitted).constData(), 0700);
        const QString file =
            QStringLiteral("%1/%2-%3.yaml")
                .arg(submitted, QDateTime::currentDateTimeUtc().toString("yyyyMMdd-hhmmss"),
                     QUuid::createUuid().toString(QUuid::Id128).left(8));
        QFile out(file);
        if (!out.open(QIODevice::WriteOnly) || out.write(r.text("yaml").toUtf8()) < 0) {
            connection.send(api::answerError(r.id, api::code::kFailed,
                                             QStringLiteral("cannot write %1").arg(file)));
            return;
        }
        arguments << file << QStringLiteral("--as") << loaded.spec->sourceFile;
    }
    arguments << QStringLiteral("--results") << resultsRoot_;
    launch(connection, r, arguments, {}, owner);
}

void ExperimentSupervisor::resume(api::ControlConnection& connection, const api::Request& r) {
    const QString folder = experimentFolder(connection, r);
    if (folder.isEmpty()) {
        return;
    }
    // Its trials go on as its owner's, whoever resumes it (an admin may).
    launch(connection, r, {QStringLiteral("resume"), folder}, r.text("experiment"),
           owners_.ownerOf(r.text("experiment")));
}

void ExperimentSupervisor::launch(api::ControlConnection& connection, const api::Request& r,
                                  const QStringList& arguments, const QString& name,
                                  const QString& owner) {
    if (!name.isEmpty() && std::any_of(children_.begin(), children_.end(),
                                       [&](const auto& c) { return c->name == name; })) {
        connection.send(api::answerError(r.id, api::code::kConflict,
                                         QStringLiteral("experiment '%1' is running").arg(name)));
        return;
    }
    QString why;
    std::optional<QueuePlace> place = queuePlaceArgument(r, owner, &why);
    if (!place) {
        connection.send(api::answerError(r.id, api::code::kBadRequest, why));
        return;
    }
    place->user = owner;  // never what the request says: start checked it (ownerFor)
    // A root engine runs each trial as its owner (the agent's trial_owner.h), who must then
    // have an account here. Only root itself may start one for a name without an account (a
    // label in its queue): its trials run as root, as root could run them anyway.
    const bool asOwner =
        ::geteuid() == 0 && ::getpwnam(QFile::encodeName(owner).constData()) != nullptr;
    if (::geteuid() == 0 && !asOwner && connection.caller().uid != 0) {
        connection.send(api::answerError(
            r.id, api::code::kFailed,
            QStringLiteral("%1 has no account on this machine: this server runs as root and runs "
                           "each trial as the user whose experiment it is")
                .arg(owner)));
        return;
    }
    auto child = std::make_unique<Child>();
    child->key = nextChildKey_++;
    child->name = name;
    child->owner = owner;
    child->startAnswer = {&connection, r.id};
    child->process = std::make_unique<QProcess>();
    QStringList all = arguments;
    all << QStringLiteral("--quiet") << QStringLiteral("--control-stdin");
    if (r.arguments.value("accept_new_host_keys").toBool()) {
        all << QStringLiteral("--accept-new-host-keys");
    }
    Child* raw = child.get();
    if (broker_) {
        all << QStringLiteral("--shared-slots");
        broker_->join(raw->key, place->user, place->priority,
                      [raw](int count, const QString& because) {
                          api::RunOrder share;
                          share.op = api::RunOrder::Op::Share;
                          share.granted = count;
                          share.why = because;
                          raw->process->write(api::runOrderLine(share));
                      });
    }
    connect(raw->process.get(), &QProcess::readyReadStandardOutput, this,
            [this, raw] { onChildOutput(*raw); });
    connect(raw->process.get(), &QProcess::readyReadStandardError, this, [raw] {
        for (const QByteArray& line : raw->process->readAllStandardError().split('\n')) {
            if (!line.trimmed().isEmpty()) {
                raw->stderrTail << QString::fromUtf8(line);
            }
        }
        while (raw->stderrTail.size() > kStderrTailLines) {
            raw->stderrTail.removeFirst();
        }
    });
    connect(raw->process.get(), &QProcess::finished, this,
            [this, raw](int code, QProcess::ExitStatus) { onChildFinished(*raw, code); });
    connect(raw->process.get(), &QProcess::errorOccurred, this,
            [this, raw](QProcess::ProcessError e) {
                if (e == QProcess::FailedToStart) {
                    raw->stderrTail << raw->process->errorString();
                    onChildFinished(*raw, -1);
                }
            });
    if (asOwner) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TUNEDECK_TRIAL_USER"), owner);
        raw->process->setProcessEnvironment(environment);
    }
    children_.push_back(std::move(child));
    raw->process->start(engineBinary_, all);
    // A child that hangs before it has a folder (a stuck file system, say) must not leave the
    // client waiting for ever: it is killed, and the start answered with why.
    QTimer::singleShot(kStartTimeoutMs, raw->process.get(), [raw] {
        if (!raw->started && raw->process->state() != QProcess::NotRunning) {
            raw->stderrTail << QStringLiteral("the experiment did not start within %1 s; stopped")
                                   .arg(kStartTimeoutMs / 1000);
            raw->process->kill();
        }
    });
}

void ExperimentSupervisor::onChildOutput(Child& child) {
    child.stdoutBuffer += child.process->readAllStandardOutput();
    qsizetype newline;
    while ((newline = child.stdoutBuffer.indexOf('\n')) >= 0) {
        const QByteArray line = child.stdoutBuffer.left(newline);
        child.stdoutBuffer.remove(0, newline + 1);
        if (!line.startsWith("{\"control\"")) {
            continue;  // text for people
        }
        const QJsonObject control =
            QJsonDocument::fromJson(line).object().value("control").toObject();
        if (control.contains("started")) {
            const QJsonObject started = control.value("started").toObject();
            child.folder = started.value("folder").toString();
            child.name = QFileInfo(child.folder).fileName();
            child.started = true;
            owners_.record(child.name, child.owner);
            handFolderToOwner(child);
            if (broker_) {
                broker_->nameOf(child.key, child.name);
            }
            if (child.startAnswer.connection) {
                child.startAnswer.connection->send(api::answerOk(
                    child.startAnswer.id, {{"experiment", child.name}, {"folder", child.folder}}));
            }
            continue;
        }
        if (control.contains("demand")) {
            if (broker_) {
                const QJsonObject d = control.value("demand").toObject();
                broker_->demand(child.key,
                                SlotDemand{d.value("running").toInt(), d.value("wanted").toInt(),
                                           d.value("cpu").toDouble(1), d.value("gpu").toDouble()});
            }
            continue;
        }
        const auto it = child.orders.find(control.value("id").toInt());
        if (it == child.orders.end()) {
            continue;
        }
        if (it->second.connection) {
            it->second.connection->send(control.value("ok").toBool()
                                            ? api::answerOk(it->second.id)
                                            : api::answerError(it->second.id, api::code::kConflict,
                                                               control.value("error").toString()));
        }
        child.orders.erase(it);
    }
}

void ExperimentSupervisor::onChildFinished(Child& child, int exitCode) {
    const QString tail = child.stderrTail.join('\n');
    if (!child.started && child.startAnswer.connection) {
        child.startAnswer.connection->send(api::answerError(
            child.startAnswer.id, api::code::kFailed,
            tail.isEmpty() ? QStringLiteral("the experiment ended at once (exit %1)").arg(exitCode)
                           : tail));
    }
    for (auto& [number, pending] : child.orders) {
        if (pending.connection) {
            pending.connection->send(api::answerError(
                pending.id, api::code::kConflict,
                QStringLiteral("experiment '%1' ended before it took the order").arg(child.name)));
        }
    }
    child.orders.clear();
    if (broker_) {
        broker_->leave(child.key);
    }
    child.process->disconnect(this);
    child.process.release()->deleteLater();  // this runs inside one of its signals
    std::erase_if(children_, [&](const auto& c) { return c.get() == &child; });
    if (children_.empty() && shutdownDone_) {
        std::exchange(shutdownDone_, nullptr)();
    }
}

void ExperimentSupervisor::order(api::ControlConnection& connection, const api::Request& r) {
    const QString name = r.text("experiment");
    Child* child = runningChild(name);
    if (!child) {
        connection.send(api::answerError(
            r.id, api::code::kNotFound,
            QStringLiteral("experiment '%1' is not running on this server").arg(name)));
        return;
    }
    QString problem;
    std::optional<api::RunOrder> order = api::readRunOrder(r.arguments, &problem);
    if (!order) {
        connection.send(api::answerError(r.id, api::code::kBadRequest, problem));
        return;
    }
    if (!mayAct(connection, r, child->owner)) {
        return;
    }
    Child& c = *child;
    order->id = c.nextOrder++;
    c.orders[int(order->id)] = {&connection, r.id};
    c.process->write(api::runOrderLine(*order));
}

QString ExperimentSupervisor::experimentFolder(api::ControlConnection& connection,
                                               const api::Request& r) {
    const QString name = r.text("experiment");
    // The rule `start` names folders by, so whatever it created can be named here again.
    if (const QString problem = folderNameProblem(name); !problem.isEmpty()) {
        connection.send(api::answerError(
            r.id, api::code::kBadRequest,
            QStringLiteral("\"experiment\" must name a folder of the results root: %1")
                .arg(printableText(problem))));
        return {};
    }
    const QString folder = resultsRoot_ + '/' + name;
    // A regular file, not a link: on a root engine the folder is its owner's, who could point a
    // link at someone else's history for the server to read out.
    struct stat history {};
    if (::lstat(QFile::encodeName(folder + QStringLiteral("/experiment.sqlite")).constData(),
                &history) != 0 ||
        !S_ISREG(history.st_mode)) {
        connection.send(
            api::answerError(r.id, api::code::kNotFound,
                             QStringLiteral("no experiment '%1' in %2").arg(name, resultsRoot_)));
        return {};
    }
    if (!mayAct(connection, r, owners_.ownerOf(name))) {
        return {};
    }
    return folder;
}

bool ExperimentSupervisor::mayAct(api::ControlConnection& connection, const api::Request& r,
                                  const QString& owner) {
    if (mayActOn(connection.caller(), owner)) {
        return true;
    }
    connection.send(api::answerError(
        r.id, api::code::kForbidden,
        QStringLiteral("experiment '%1' is not yours (you are %2): only its owner and the "
                       "server's admins may %3 it")
            .arg(r.text("experiment"), connection.caller().user, r.op)));
    return false;
}

void ExperimentSupervisor::handFolderToOwner(const Child& child) {
    if (::geteuid() != 0 || child.folder.isEmpty()) {
        return;
    }
    const passwd* entry = ::getpwnam(QFile::encodeName(child.owner).constData());
    if (entry == nullptr) {
        return;  // root's own label (launch): its trials run as root
    }
    // The folder itself only, and never through a link: what lies below is the run's (root's)
    // and the trials' (their owner's, handed over by the agent).
    const QByteArray folder = QFile::encodeName(child.folder);
    struct stat info {};
    if (::lstat(folder.constData(), &info) != 0 || !S_ISDIR(info.st_mode) ||
        ::lchown(folder.constData(), entry->pw_uid, entry->pw_gid) != 0 ||
        ::chmod(folder.constData(), 0700) != 0) {
        std::fprintf(stderr, "serve: cannot give %s to %s: %s\n", folder.constData(),
                     qPrintable(child.owner), std::strerror(errno));
    }
}

void ExperimentSupervisor::deleteExperiment(api::ControlConnection& connection,
                                            const api::Request& r) {
    const QString folder = experimentFolder(connection, r);
    if (folder.isEmpty()) {
        return;
    }
    const QString name = r.text("experiment");
    if (std::any_of(children_.begin(), children_.end(),
                    [&](const auto& c) { return c->name == name; })) {
        connection.send(api::answerError(
            r.id, api::code::kConflict,
            QStringLiteral("experiment '%1' is running; stop it first").arg(name)));
        return;
    }
    readers_.erase(name);
    std::erase_if(subscriptions_, [&](const Subscription& s) { return s.experiment == name; });
    const checkpoint::FileOutcome removed = checkpoint::removeFolderTree(
        checkpoint::posixFileSystem(), QFile::encodeName(folder).toStdString());
    if (!removed.ok) {
        connection.send(
            api::answerError(r.id, api::code::kFailed, QString::fromStdString(removed.error)));
        return;
    }
    owners_.forget(name);
    connection.send(api::answerOk(r.id, {{"experiment", name}}));
}

void ExperimentSupervisor::subscribe(api::ControlConnection& connection, const api::Request& r) {
    const QString folder = experimentFolder(connection, r);
    if (folder.isEmpty()) {
        return;
    }
    QString badArgument;
    const std::optional<std::int64_t> since = sinceArgument(r, &badArgument);
    if (!since) {
        connection.send(api::answerError(r.id, api::code::kBadRequest, badArgument));
        return;
    }
    ExperimentStore* store = reader(r.text("experiment"));
    ExperimentRecord record;
    if (!store || !store->loadExperiment(&record)) {
        connection.send(api::answerError(
            r.id, api::code::kFailed, QStringLiteral("cannot read the history of %1").arg(folder)));
        return;
    }
    Subscription subscription;
    subscription.id = nextSubscription_++;
    subscription.connection = &connection;
    subscription.experiment = r.text("experiment");
    subscription.cursor = *since;
    subscriptions_.push_back(subscription);
    // What a client needs to show the events: the objective, and the spec itself.
    const SpecSummary spec = summarizeSpec(record.specText);
    connection.send(api::answerOk(
        r.id,
        {{"subscription", subscription.id},
         {"name", record.name},
         {"metric", spec.metric},
         {"mode", spec.mode == MetricMode::Min ? QStringLiteral("min") : QStringLiteral("max")},
         {"status", record.status},
         {"spec", record.specText}}));
    feedTimer_.start();
    QTimer::singleShot(0, this, &ExperimentSupervisor::feed);
}

void ExperimentSupervisor::unsubscribe(api::ControlConnection& connection, const api::Request& r) {
    const int id = r.arguments.value("subscription").toInt();
    const auto removed = std::erase_if(subscriptions_, [&](const Subscription& s) {
        return s.id == id && s.connection == &connection;
    });
    if (removed == 0) {
        connection.send(
            api::answerError(r.id, api::code::kNotFound,
                             QStringLiteral("no subscription %1 on this connection").arg(id)));
        return;
    }
    connection.send(api::answerOk(r.id));
}

void ExperimentSupervisor::report(api::ControlConnection& connection, const api::Request& r) {
    const QString folder = experimentFolder(connection, r);
    if (folder.isEmpty()) {
        return;
    }
    QString badArgument;
    const std::optional<QString> format = reportFormatArgument(r, &badArgument);
    if (!format) {
        connection.send(api::answerError(r.id, api::code::kBadRequest, badArgument));
        return;
    }
    QStringList arguments{r.op, folder, QStringLiteral("--format"), *format};
    if (r.op == api::op::kBest) {
        const std::optional<QString> scope = bestScopeArgument(r, &badArgument);
        if (!scope) {
            connection.send(api::answerError(r.id, api::code::kBadRequest, badArgument));
            return;
        }
        arguments << QStringLiteral("--scope") << *scope;
    }
    // The command line's own code, so the app's export is exactly what `best`/`export` print.
    auto* process = new QProcess(this);
    QPointer<api::ControlConnection> to = &connection;
    const QJsonValue id = r.id;
    connect(process, &QProcess::finished, this, [process, to, id](int code, QProcess::ExitStatus) {
        process->deleteLater();
        if (!to) {
            return;
        }
        if (code == 0) {
            to->send(
                api::answerOk(id, {{"text", QString::fromUtf8(process->readAllStandardOutput())}}));
        } else {
            to->send(
                api::answerError(id, api::code::kFailed,
                                 QString::fromUtf8(process->readAllStandardError()).trimmed()));
        }
    });
    process->start(engineBinary_, arguments);
}

void ExperimentSupervisor::forget(api::ControlConnection* connection) {
    std::erase_if(subscriptions_, [&](const Subscription& s) {
        return !s.connection || s.connection == connection;
    });
}

ExperimentStore* ExperimentSupervisor::reader(const QString& experiment) {
    auto it = readers_.find(experiment);
    if (it == readers_.end()) {
        std::unique_ptr<ExperimentStore> store;
        const QString path = resultsRoot_ + '/' + experiment + QStringLiteral("/experiment.sqlite");
        if (!ExperimentStore::open(path, ExperimentStore::Mode::ReadOnly, &store)) {
            return nullptr;
        }
        it = readers_.emplace(experiment, std::move(store)).first;
    }
    return it->second.get();
}

void ExperimentSupervisor::feed() {
    std::erase_if(subscriptions_, [](const Subscription& s) { return !s.connection; });
    for (Subscription& s : subscriptions_) {
        ExperimentStore* store = reader(s.experiment);
        if (!store) {
            continue;
        }
        // Batch after batch while the reader keeps up: a history replays at the speed the
        // connection takes it; live events come one round (100 ms) after they are recorded.
        for (;;) {
            if (s.connection->backlog() > kMaxBacklogBytes) {
                break;  // it reads slowly; its cursor waits, nothing is lost
            }
            const std::vector<EventRecord> batch = store->loadEventStream(s.cursor, kFeedBatch);
            for (const EventRecord& e : batch) {
                const QJsonObject payload = e.type == events::type::kResult
                                                ? events::result(e.trialId, e.payload)
                                                : e.payload;
                s.connection->send(api::eventMessage(
                    s.id, s.experiment, events::envelope(e.type, e.seq, e.timestamp, payload)));
                s.cursor = e.seq;
            }
            if (int(batch.size()) < kFeedBatch) {
                if (!s.caughtUp) {
                    s.caughtUp = true;
                    s.connection->send(api::caughtUpMessage(s.id, s.experiment, s.cursor));
                }
                break;
            }
        }
    }
    if (subscriptions_.empty()) {
        feedTimer_.stop();
    }
}

void ExperimentSupervisor::shutdown(int graceMs, std::function<void()> done) {
    if (children_.empty()) {
        done();
        return;
    }
    shutdownDone_ = std::move(done);
    for (auto& child : children_) {
        child->process->write("{\"id\":0,\"op\":\"pause\"}\n");
    }
    QTimer::singleShot(graceMs, this, [this] {
        for (auto& child : children_) {
            child->process->kill();
        }
    });
}

void ExperimentSupervisor::queue(api::ControlConnection& connection, const api::Request& r) {
    if (!broker_) {
        connection.send(api::answerError(r.id, api::code::kNotFound,
                                         QStringLiteral("this server runs no shared queue")));
        return;
    }
    connection.send(api::answerOk(r.id, broker_->describe()));
}

}  // namespace tunedeck::cli
