// The app's side of the control API (engine/api/control_protocol.h): the only app code that knows
// the wire format. It connects to a local engine's socket or to a TCP address with a token,
// matches answers to requests, and keeps subscriptions alive across reconnects: it remembers the
// last sequence number seen per experiment and subscribes again from there, so a dropped
// connection loses no event. Thread-safety: lives on the GUI (or test) thread.
#pragma once

#include <QJsonObject>
#include <QLocalSocket>
#include <QObject>
#include <QTcpSocket>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>

#include "api/control_answers.h"
#include "api/event_decoders.h"
#include "core/line_framer.h"

namespace tunedeck::client {

class EngineClient : public QObject {
    Q_OBJECT
  public:
    using AnswerHandler = std::function<void(const QJsonObject& answer)>;

    explicit EngineClient(QObject* parent = nullptr);
    ~EngineClient() override;

    // Where to connect; the connection is made (and remade after a loss) by open().
    void setLocalServer(const QString& socketPath);
    void setTcpServer(const QString& host, quint16 port, const QString& token);
    // The token sent with hello, also over a local socket: the local end of an SSH tunnel
    // (client/ssh_tunnel.h) may lead to an engine on TCP that wants one. setLocalServer() keeps
    // it; an engine that needs none ignores it.
    void setToken(const QString& token) { token_ = token; }
    // Connects, says hello, subscribes again where it was; reconnects after a loss every
    // `retryMs` until close(). A connection already open is dropped first (a new address).
    void open(int retryMs = 1000);
    void close();
    bool isReady() const { return ready_; }

    // Sends {"op": op, ...arguments} with a fresh id; `onAnswer` gets the answer (ok or not).
    // Requests made while not ready wait and go out once the hello is answered.
    void request(const QString& op, QJsonObject arguments = {}, AnswerHandler onAnswer = {});
    // One call per op of CONTROL_API.md, answered with a typed answer. `done` gets the status
    // (the engine's message when it refused, or why the answer could not be read) and the answer.
    template <typename Answer>
    using Done = std::function<void(const Status& status, const Answer& answer)>;
    using OrderDone = std::function<void(const Status& status)>;
    void listExperiments(Done<std::vector<api::ExperimentListEntry>> done);
    // Starts the experiment file at `path` on the engine's machine, or, when `yaml` is given,
    // that text with relative paths resolved from `path`'s folder.
    void start(const QString& path, const QString& yaml, Done<api::StartedAnswer> done);
    // resume, stop, pause of one experiment (each op's own name, not a string).
    void resumeExperiment(const QString& experiment, OrderDone done = {});
    void stopExperiment(const QString& experiment, OrderDone done = {});
    void pauseExperiment(const QString& experiment, OrderDone done = {});
    void stopTrial(const QString& experiment, const QString& trial, OrderDone done = {});
    void pauseTrial(const QString& experiment, const QString& trial, OrderDone done = {});
    void resumeTrial(const QString& experiment, const QString& trial, OrderDone done = {});
    // A new max_workers for a node type of a running experiment's autoscaled cluster.
    void setMaxWorkers(const QString& experiment, const QString& nodeType, int maxWorkers,
                       OrderDone done = {});
    // New num_samples and/or max_concurrent_trials of a running experiment (set_limits).
    void setLimits(const QString& experiment, std::optional<int> numSamples,
                   std::optional<int> maxConcurrentTrials, OrderDone done = {});
    // A trial's note, replacing its earlier one (empty: none), running experiment or not.
    void setTrialNote(const QString& experiment, const QString& trial, const QString& note,
                      OrderDone done = {});
    // The best config (format yaml, json or flags) of the best trial by `scope` (Ray's names:
    // last, all, avg, last-5-avg, last-10-avg), and every result (csv or json), as text.
    void best(const QString& experiment, const QString& format, const QString& scope,
              Done<api::TextAnswer> done);
    void exportResults(const QString& experiment, const QString& format,
                       Done<api::TextAnswer> done);
    void trialLog(const QString& experiment, const QString& trial, qint64 offset,
                  Done<api::TrialLogAnswer> done);
    // serve's fair queue: who runs, who waits and why.
    void queue(Done<api::QueueAnswer> done);
    // Checks an experiment's text (relative paths from `fileName`'s folder); the answer's
    // problems are read by the editor (their shape is engine/api's problem list).
    void validate(const QString& yaml, const QString& fileName, AnswerHandler onAnswer);
    // Whether the engine's machine has `folder` (a remote engine: a folder shared or synced with
    // this machine has the same path there). Asked as a `validate` of a file in that folder
    // whose working_dir is its own folder; false too when the engine cannot be asked.
    void hasFolder(const QString& folder, std::function<void(bool there)> answer);

    // Events of `experiment` after `since` (0: from the start), then live, until unsubscribe.
    void subscribe(const QString& experiment, qint64 since = 0);
    void unsubscribe(const QString& experiment);
    // The last sequence number received for `experiment` (0 when none).
    qint64 lastSeq(const QString& experiment) const;
    // The message of an error answer (empty for an ok one).
    static QString errorOf(const QJsonObject& answer);

  signals:
    void ready(const tunedeck::api::HelloAnswer& hello);
    // The answer to a subscription (name, metric, mode, status, spec), after each (re)connect.
    void subscribed(const QString& experiment, const tunedeck::api::SubscribedAnswer& info);
    void connectionLost(const QString& reason);
    // An event as it came over the wire (the envelope of core/events.h), for tools that look at
    // the wire itself; the app's models use decodedEvent.
    void event(const QString& experiment, const QJsonObject& event);
    // The same event decoded; one the client cannot decode is a problem() instead.
    void decodedEvent(const QString& experiment, const tunedeck::events::Event& event);
    // Everything recorded so far was delivered; what follows is live.
    void caughtUp(const QString& experiment, qint64 seq);
    // A message the client could not read, or an error answer nobody waited for.
    void problem(const QString& message);

  private:
    struct Subscription {
        qint64 lastSeq = 0;
        int serverId = 0;  // 0 while not subscribed on the current connection
    };

    void connectNow();
    // Forgets the current socket without a signal.
    void dropSocket();
    void onConnected();
    void onDisconnected(const QString& reason);
    void onReadable();
    void onMessage(const QJsonObject& message);
    void send(const QJsonObject& message);
    void sendSubscribe(const QString& experiment);
    template <typename Answer>
    void ask(const QString& op, QJsonObject arguments,
             Status (*decode)(const QJsonObject&, Answer*), Done<Answer> done);
    void order(const QString& op, QJsonObject arguments, OrderDone done);
    QIODevice* socket() const;

    QString socketPath_;
    QString host_;
    quint16 port_ = 0;
    QString token_;
    std::unique_ptr<QLocalSocket> local_;
    std::unique_ptr<QTcpSocket> tcp_;
    LineFramer framer_;
    bool wanted_ = false;
    bool ready_ = false;
    int retryMs_ = 1000;
    QTimer retry_;
    qint64 nextId_ = 1;
    std::map<qint64, AnswerHandler> waiting_;
    std::vector<QJsonObject> queued_;  // requests made before the hello was answered
    std::map<QString, Subscription> subscriptions_;
};

}  // namespace tunedeck::client
