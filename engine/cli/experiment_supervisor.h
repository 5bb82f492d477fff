// What `tunedeck-engine serve` does with control requests (api/control_server.h carries them):
// validates specs, lists the experiments under its results root, starts and resumes each
// experiment as its own `tunedeck-engine run|resume --control-stdin` process (so one crashing
// experiment takes nothing else down), relays orders to them, and feeds subscribers every event
// from the experiments' SQLite histories: a replay from any sequence number, then live, through
// one path, so a reconnect loses nothing. With a SlotBroker, the experiments on this machine
// share it through the broker's fair queue (`--shared-slots`). Each experiment has an owner
// (experiment_owners.h): only the owner and the server's admins may steer, read or delete it
// (core/experiment_access.h), and on a root engine its trials run as the owner (the agent's
// trial_owner.h). Thread-safety: main thread only;
// `validate` loads the file on a thread pool and answers on the main thread.
#pragma once

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QThreadPool>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "api/control_server.h"
#include "cli/experiment_owners.h"
#include "cli/slot_broker.h"
#include "config/problem_list.h"
#include "store/experiment_store.h"

namespace tunedeck::cli {

class ExperimentSupervisor : public QObject {
    Q_OBJECT
  public:
    // `broker`: serve's fair queue, or none (each experiment then takes what its nodes have).
    ExperimentSupervisor(QString resultsRoot, QString engineBinary, SlotBroker* broker = nullptr,
                         QObject* parent = nullptr);
    ~ExperimentSupervisor() override;

    void handle(api::ControlConnection& connection, const api::Request& request);
    void forget(api::ControlConnection* connection);
    // Pauses every running experiment (their trials resume later with `resume`) and calls
    // `done` once all have ended, or after `graceMs`.
    void shutdown(int graceMs, std::function<void()> done);

  private:
    struct PendingAnswer {
        QPointer<api::ControlConnection> connection;
        QJsonValue id;
    };
    // An experiment this server runs, as a child process.
    struct Child {
        int key = 0;   // in the broker's queue
        QString name;  // the folder's name under the results root
        QString folder;
        QString owner;  // the user it is queued as, and whose trials these are
        std::unique_ptr<QProcess> process;
        QByteArray stdoutBuffer;
        QStringList stderrTail;  // the last lines, for error answers
        bool started = false;
        PendingAnswer startAnswer;
        int nextOrder = 1;
        std::map<int, PendingAnswer> orders;
    };
    struct Subscription {
        int id = 0;
        QPointer<api::ControlConnection> connection;
        QString experiment;
        std::int64_t cursor = 0;
        bool caughtUp = false;
    };

    void hello(api::ControlConnection& connection, const api::Request& request);
    void validate(api::ControlConnection& connection, const api::Request& request);
    void list(api::ControlConnection& connection, const api::Request& request);
    void start(api::ControlConnection& connection, const api::Request& request);
    // The rest of `start` once its file is loaded (off the loop): answers a file that does not
    // load, or launches the run for `owner`.
    void startLoaded(api::ControlConnection& connection, const api::Request& request,
                     const QString& owner, const LoadResult<ExperimentSpec>& loaded);
    void resume(api::ControlConnection& connection, const api::Request& request);
    void order(api::ControlConnection& connection, const api::Request& request);
    // Removes a stopped experiment's folder (no symlink followed) and its owner record.
    void deleteExperiment(api::ControlConnection& connection, const api::Request& request);
    void subscribe(api::ControlConnection& connection, const api::Request& request);
    void unsubscribe(api::ControlConnection& connection, const api::Request& request);
    // best and export: what `tunedeck-engine best|export FOLDER --format F` prints, as `text`.
    void report(api::ControlConnection& connection, const api::Request& request);
    // experiment_supervisor_trials.cpp: a piece of a trial's trial.log from a byte offset
    // (clients follow a log by asking again), and a trial's note, through the run when it runs
    // here, else straight into the folder's history (cli/trial_notes.h).
    void trialLog(api::ControlConnection& connection, const api::Request& request);
    void setTrialNote(api::ControlConnection& connection, const api::Request& request);
    // The run of experiment `name` this server started, or null when none runs.
    Child* runningChild(const QString& name) const;
    // The fair queue: each experiment's user, priority, trials running and wanted, and why
    // it waits.
    void queue(api::ControlConnection& connection, const api::Request& request);

    // The folder of experiment `name` under the results root; empty (with the answer sent) when
    // the name is not one, or when the connection's caller may not act on it.
    QString experimentFolder(api::ControlConnection& connection, const api::Request& request);
    // Whether the connection's caller may act on an experiment of `owner`; answers `forbidden`
    // when not.
    bool mayAct(api::ControlConnection& connection, const api::Request& request,
                const QString& owner);
    void launch(api::ControlConnection& connection, const api::Request& request,
                const QStringList& arguments, const QString& name, const QString& owner);
    // On a root engine: the experiment's folder becomes its owner's (0700), so the owner's trials
    // write there and no one else reads it.
    void handFolderToOwner(const Child& child);
    void onChildOutput(Child& child);
    void onChildFinished(Child& child, int exitCode);
    void feed();
    ExperimentStore* reader(const QString& experiment);

    QString resultsRoot_;
    QString engineBinary_;
    SlotBroker* broker_ = nullptr;
    ExperimentOwners owners_;
    int nextChildKey_ = 1;
    std::vector<std::unique_ptr<Child>> children_;
    std::vector<Subscription> subscriptions_;
    std::map<QString, std::unique_ptr<ExperimentStore>> readers_;
    int nextSubscription_ = 1;
    QTimer feedTimer_;
    std::function<void()> shutdownDone_;
    // Where `validate` loads files, off the event loop (kValidationsAtOnce threads). Last, so it
    // is destroyed first: it waits for the validations still running, whose answers are then
    // dropped with this object.
    QThreadPool validations_;
};

}  // namespace tunedeck::cli
