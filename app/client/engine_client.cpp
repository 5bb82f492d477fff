#include "client/engine_client.h"

#include <QJsonDocument>

#include "api/control_protocol.h"
#include "api/problems_json.h"

namespace tunedeck::client {

EngineClient::EngineClient(QObject* parent) : QObject(parent), framer_(api::kMaxRequestLine) {
    retry_.setSingleShot(true);
    connect(&retry_, &QTimer::timeout, this, &EngineClient::connectNow);
}

EngineClient::~EngineClient() {
    close();
}

void EngineClient::setLocalServer(const QString& socketPath) {
    socketPath_ = socketPath;
    host_.clear();
}

void EngineClient::setTcpServer(const QString& host, quint16 port, const QString& token) {
    host_ = host;
    port_ = port;
    token_ = token;
    socketPath_.clear();
}

void EngineClient::open(int retryMs) {
    wanted_ = true;
    retryMs_ = retryMs;
    if (local_ || tcp_) {
        onDisconnected(tr("attaching elsewhere"));  // answers what waits; retries come below
        retry_.stop();
    }
    connectNow();
}

void EngineClient::close() {
    wanted_ = false;
    retry_.stop();
    dropSocket();
}

void EngineClient::dropSocket() {
    if (local_) {
        local_->disconnect(this);
        local_->abort();
        local_.release()->deleteLater();
    }
    if (tcp_) {
        tcp_->disconnect(this);
        tcp_->abort();
        tcp_.release()->deleteLater();
    }
    ready_ = false;
}

QIODevice* EngineClient::socket() const {
    return local_ ? static_cast<QIODevice*>(local_.get()) : tcp_.get();
}

void EngineClient::connectNow() {
    if (!wanted_) {
        return;
    }
    framer_ = LineFramer(api::kMaxRequestLine);
    if (!socketPath_.isEmpty()) {
        local_ = std::make_unique<QLocalSocket>();
        connect(local_.get(), &QLocalSocket::connected, this, &EngineClient::onConnected);
        connect(local_.get(), &QLocalSocket::readyRead, this, &EngineClient::onReadable);
        connect(local_.get(), &QLocalSocket::disconnected, this,
                [this] { onDisconnected(tr("the engine closed the connection")); });
        connect(local_.get(), &QLocalSocket::errorOccurred, this,
                [this] { onDisconnected(local_ ? local_->errorString() : QString()); });
        local_->connectToServer(socketPath_);
    } else {
        tcp_ = std::make_unique<QTcpSocket>();
        connect(tcp_.get(), &QTcpSocket::connected, this, &EngineClient::onConnected);
        connect(tcp_.get(), &QTcpSocket::readyRead, this, &EngineClient::onReadable);
        connect(tcp_.get(), &QTcpSocket::disconnected, this,
                [this] { onDisconnected(tr("the engine closed the connection")); });
        connect(tcp_.get(), &QTcpSocket::errorOccurred, this,
                [this] { onDisconnected(tcp_ ? tcp_->errorString() : QString()); });
        tcp_->connectToHost(host_, port_);
    }
}

void EngineClient::onConnected() {
    QJsonObject hello{{"id", 0}, {"op", api::op::kHello}};
    if (!token_.isEmpty()) {
        hello.insert("token", token_);
    }
    waiting_[0] = [this](const QJsonObject& answer) {
        if (!answer.value("ok").toBool()) {
            emit problem(errorOf(answer));
            return;
        }
        api::HelloAnswer hello;
        if (const Status status = api::decodeHello(answer, &hello); !status) {
            emit problem(status.message());
            return;
        }
        ready_ = true;
        for (auto& [experiment, subscription] : subscriptions_) {
            sendSubscribe(experiment);
        }
        for (const QJsonObject& request : std::exchange(queued_, {})) {
            send(request);
        }
        emit ready(hello);
    };
    send(hello);
}

void EngineClient::onDisconnected(const QString& reason) {
    if (!local_ && !tcp_) {
        return;
    }
    const bool wasReady = ready_;
    ready_ = false;
    // The sockets are dropped later: this runs inside one of their signals.
    if (local_) {
        local_->disconnect(this);
        local_.release()->deleteLater();
    }
    if (tcp_) {
        tcp_->disconnect(this);
        tcp_.release()->deleteLater();
    }
    for (auto& [experiment, subscription] : subscriptions_) {
        subscription.serverId = 0;
    }
    // Requests in flight get no answer from this connection; their handlers learn it.
    for (auto& [id, handler] : std::exchange(waiting_, {})) {
        if (handler && id != 0) {
            handler(api::answerError(qint64(id), api::code::kFailed, reason));
        }
    }
    if (wasReady) {
        emit connectionLost(reason);
    }
    if (wanted_) {
        retry_.start(retryMs_);
    }
}

void EngineClient::request(const QString& op, QJsonObject arguments, AnswerHandler onAnswer) {
    const qint64 id = nextId_++;
    arguments.insert("id", id);
    arguments.insert("op", op);
    waiting_[id] = std::move(onAnswer);
    if (ready_) {
        send(arguments);
    } else {
        queued_.push_back(arguments);
    }
}

template <typename Answer>
void EngineClient::ask(const QString& op, QJsonObject arguments,
                       Status (*decode)(const QJsonObject&, Answer*), Done<Answer> done) {
    request(op, std::move(arguments), [decode, done](const QJsonObject& answer) {
        Answer typed{};
        const Status status = decode(answer, &typed);
        if (done) {
            done(status, typed);
        }
    });
}

void EngineClient::order(const QString& op, QJsonObject arguments, OrderDone done) {
    request(op, std::move(arguments), [done](const QJsonObject& answer) {
        if (done) {
            done(api::answerStatus(answer));
        }
    });
}

void EngineClient::listExperiments(Done<std::vector<api::ExperimentListEntry>> done) {
    ask(api::op::kList, {}, api::decodeExperimentList, std::move(done));
}

void EngineClient::start(const QString& path, const QString& yaml, Done<api::StartedAnswer> done) {
    const QJsonObject arguments = yaml.isNull() ? QJsonObject{{"path", path}}
                                                : QJsonObject{{"yaml", yaml}, {"file_name", path}};
    ask(api::op::kStart, arguments, api::decodeStarted, std::move(done));
}

void EngineClient::resumeExperiment(const QString& experiment, OrderDone done) {
    order(api::op::kResume, {{"experiment", experiment}}, std::move(done));
}

void EngineClient::stopExperiment(const QString& experiment, OrderDone done) {
    order(api::op::kStop, {{"experiment", experiment}}, std::move(done));
}

void EngineClient::pauseExperiment(const QString& experiment, OrderDone done) {
    order(api::op::kPause, {{"experiment", experiment}}, std::move(done));
}

void EngineClient::stopTrial(const QString& experiment, const QString& trial, OrderDone done) {
    order(api::op::kStopTrial, {{"experiment", experiment}, {"trial", trial}}, std::move(done));
}

void EngineClient::pauseTrial(const QString& experiment, const QString& trial, OrderDone done) {
    order(api::op::kPauseTrial, {{"experiment", experiment}, {"trial", trial}}, std::move(done));
}

void EngineClient::resumeTrial(const QString& experiment, const QString& trial, OrderDone done) {
    order(api::op::kResumeTrial, {{"experiment", experiment}, {"trial", trial}}, std::move(done));
}

void EngineClient::setMaxWorkers(const QString& experiment, const QString& nodeType, int maxWorkers,
                                 OrderDone done) {
    order(api::op::kSetMaxWorkers,
          {{"experiment", experiment}, {"node_type", nodeType}, {"max_workers", maxWorkers}},
          std::move(done));
}

void EngineClient::setLimits(const QString& experiment, std::optional<int> numSamples,
                             std::optional<int> maxConcurrentTrials, OrderDone done) {
    QJsonObject arguments{{"experiment", experiment}};
    if (numSamples) {
        arguments.insert("num_samples", *numSamples);
    }
    if (maxConcurrentTrials) {
        arguments.insert("max_concurrent_trials", *maxConcurrentTrials);
    }
    order(api::op::kSetLimits, std::move(arguments), std::move(done));
}

void EngineClient::setTrialNote(const QString& experiment, const QString& trial,
                                const QString& note, OrderDone done) {
    order(api::op::kSetTrialNote, {{"experiment", experiment}, {"trial", trial}, {"note", note}},
          std::move(done));
}

void EngineClient::best(const QString& experiment, const QString& format, const QString& scope,
                        Done<api::TextAnswer> done) {
    ask(api::op::kBest, {{"experiment", experiment}, {"format", format}, {"scope", scope}},
        api::decodeText, std::move(done));
}

void EngineClient::exportResults(const QString& experiment, const QString& format,
                                 Done<api::TextAnswer> done) {
    ask(api::op::kExport, {{"experiment", experiment}, {"format", format}}, api::decodeText,
        std::move(done));
}

void EngineClient::queue(Done<api::QueueAnswer> done) {
    ask(api::op::kQueue, {}, api::decodeQueue, std::move(done));
}

void EngineClient::trialLog(const QString& experiment, const QString& trial, qint64 offset,
                            Done<api::TrialLogAnswer> done) {
    ask(api::op::kTrialLog, {{"experiment", experiment}, {"trial", trial}, {"offset", offset}},
        api::decodeTrialLog, std::move(done));
}

void EngineClient::validate(const QString& yaml, const QString& fileName, AnswerHandler onAnswer) {
    QJsonObject arguments{{"yaml", yaml}};
    if (!fileName.isEmpty()) {
        arguments.insert("file_name", fileName);
    }
    request(api::op::kValidate, arguments, std::move(onAnswer));
}

void EngineClient::hasFolder(const QString& folder, std::function<void(bool there)> answer) {
    const QString probe = QStringLiteral(
        "name: folder-check\n"
        "trainable: {command: [true], working_dir: .}\n");
    validate(probe, folder + QStringLiteral("/.folder-check.yaml"),
             [answer = std::move(answer)](const QJsonObject& reply) {
                 bool there = bool(api::answerStatus(reply));
                 for (const Problem& problem : api::problemsOfValidation(reply)) {
                     there = there && problem.key != QLatin1String("trainable.working_dir");
                 }
                 answer(there);
             });
}

void EngineClient::subscribe(const QString& experiment, qint64 since) {
    Subscription& subscription = subscriptions_[experiment];
    subscription.lastSeq = since;
    if (ready_) {
        sendSubscribe(experiment);
    }
}

void EngineClient::sendSubscribe(const QString& experiment) {
    const qint64 id = nextId_++;
    waiting_[id] = [this, experiment](const QJsonObject& answer) {
        auto it = subscriptions_.find(experiment);
        if (it == subscriptions_.end()) {
            return;
        }
        api::SubscribedAnswer info;
        if (const Status status = api::decodeSubscribed(answer, &info); !status) {
            emit problem(status.message());
            return;
        }
        it->second.serverId = info.subscription;
        emit subscribed(experiment, info);
    };
    send({{"id", id},
          {"op", api::op::kSubscribe},
          {"experiment", experiment},
          {"since", subscriptions_[experiment].lastSeq}});
}

void EngineClient::unsubscribe(const QString& experiment) {
    auto it = subscriptions_.find(experiment);
    if (it == subscriptions_.end()) {
        return;
    }
    if (ready_ && it->second.serverId != 0) {
        request(api::op::kUnsubscribe, {{"subscription", it->second.serverId}});
    }
    subscriptions_.erase(it);
}

qint64 EngineClient::lastSeq(const QString& experiment) const {
    auto it = subscriptions_.find(experiment);
    return it == subscriptions_.end() ? 0 : it->second.lastSeq;
}

QString EngineClient::errorOf(const QJsonObject& answer) {
    return answer.value("error").toObject().value("message").toString();
}

void EngineClient::send(const QJsonObject& message) {
    if (QIODevice* device = socket()) {
        device->write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    }
}

void EngineClient::onReadable() {
    QIODevice* device = socket();
    if (!device) {
        return;
    }
    framer_.feed(
        device->readAll(),
        [this](QByteArrayView line) {
            const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray());
            if (!document.isObject()) {
                emit problem(tr("the engine sent a line that is not a JSON object"));
                return;
            }
            onMessage(document.object());
        },
        [this] { emit problem(tr("the engine sent an overlong line; it was skipped")); });
}

void EngineClient::onMessage(const QJsonObject& message) {
    if (message.contains("event") || message.contains("caught_up")) {
        const QString experiment = message.value("experiment").toString();
        auto it = subscriptions_.find(experiment);
        if (it == subscriptions_.end() ||
            it->second.serverId != message.value("subscription").toInt()) {
            return;  // a subscription ended meanwhile, or one of an earlier connection
        }
        if (message.contains("caught_up")) {
            emit caughtUp(experiment, qint64(message.value("caught_up").toDouble()));
            return;
        }
        const QJsonObject event = message.value("event").toObject();
        const qint64 seq = qint64(event.value("seq").toDouble());
        if (seq <= it->second.lastSeq) {
            return;  // already delivered before a reconnect
        }
        it->second.lastSeq = seq;
        emit this->event(experiment, event);
        events::Event decoded;
        if (const Status status = events::decodeEvent(event, &decoded); !status) {
            emit problem(
                tr("the engine sent an event this app cannot read: %1").arg(status.message()));
            return;
        }
        emit decodedEvent(experiment, decoded);
        return;
    }
    const qint64 id = qint64(message.value("id").toDouble());
    auto handler = waiting_.find(id);
    if (message.value("id").isNull() || handler == waiting_.end()) {
        if (!message.value("ok").toBool()) {
            emit problem(errorOf(message));
        }
        return;
    }
    AnswerHandler onAnswer = std::move(handler->second);
    waiting_.erase(handler);
    if (onAnswer) {
        onAnswer(message);
    } else if (!message.value("ok").toBool()) {
        emit problem(errorOf(message));
    }
}

}  // namespace tunedeck::client
