#include "cluster/node_link.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

namespace tunedeck {

namespace {

bool holds(const QString& dir, const QString& path) {
    return path == dir || (path.startsWith(dir) && path.at(dir.size()) == QLatin1Char('/'));
}

QString remap(const QString& path, const std::vector<std::pair<QString, QString>>& dirs,
              bool toNode) {
    const std::pair<QString, QString>* best = nullptr;
    for (const auto& entry : dirs) {
        const QString& from = toNode ? entry.first : entry.second;
        if (holds(from, path) &&
            (!best || from.size() > (toNode ? best->first : best->second).size())) {
            best = &entry;
        }
    }
    if (!best) {
        return path;
    }
    const QString& from = toNode ? best->first : best->second;
    const QString& to = toNode ? best->second : best->first;
    return to + path.mid(from.size());
}

}  // namespace

node::Decoded<node::Event> parseAgentLine(QByteArrayView line) {
    return node::decodeEvent(std::string_view(line.data(), std::size_t(line.size())));
}

std::optional<QJsonObject> relayedTrialLine(const node::TrialLine& line) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(
        QByteArray::fromRawData(line.msg.data(), qsizetype(line.msg.size())), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        return std::nullopt;
    }
    return doc.object();
}

QJsonObject jsonOf(const node::Event& event) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(node::encodeEvent(event))).object();
}

void PathMap::add(const QString& headDir, const QString& nodeDir) {
    dirs_.emplace_back(headDir, nodeDir);
}

QString PathMap::toNode(const QString& path) const {
    return remap(path, dirs_, true);
}

QString PathMap::toHead(const QString& path) const {
    return remap(path, dirs_, false);
}

bool NodeLink::receive(const QByteArray& data) {
    bool overlong = false;
    framer_.feed(
        data,
        [this](QByteArrayView line) {
            if (line.isEmpty()) {
                return;
            }
            const node::Decoded<node::Event> event = parseAgentLine(line);
            if (!event) {
                qWarning("worker agent of %s sent a malformed line: %s", qPrintable(nodeId()),
                         event.error.message.c_str());
                return;
            }
            emit messageReceived(*event.value);
        },
        [&overlong] { overlong = true; });
    return !overlong;
}

ProcessNodeLink::ProcessNodeLink(QString nodeId, QString program, QStringList arguments,
                                 QObject* parent)
    : NodeLink(parent), nodeId_(std::move(nodeId)), program_(std::move(program)) {
    process_.setProgram(program_);
    process_.setArguments(arguments);
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&process_, &QProcess::readyReadStandardOutput, this, &ProcessNodeLink::readAvailable);
    connect(&process_, &QProcess::readyReadStandardError, this, &ProcessNodeLink::readErrors);
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && !closedSignalled_) {
            closedSignalled_ = true;
            emit closed(
                tr("cannot start the worker agent %1: %2").arg(program_, process_.errorString()));
        }
    });
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readAvailable();
        if (closedSignalled_) {
            return;
        }
        closedSignalled_ = true;
        readErrors();
        emit closed(exitReason(code, status == QProcess::CrashExit, lastError_));
    });
}

QString ProcessNodeLink::exitReason(int code, bool crashed, const QString& lastError) const {
    (void)lastError;
    return crashed ? tr("the worker agent crashed")
                   : tr("the worker agent exited with status %1").arg(code);
}

ProcessNodeLink::~ProcessNodeLink() {
    closedSignalled_ = true;
    blockSignals(true);
    if (process_.state() != QProcess::NotRunning) {
        process_.closeWriteChannel();           // the agent kills its trials when its stdin closes
        if (!process_.waitForFinished(8000)) {  // the agent gives trials 5 s after SIGTERM
            process_.kill();
            process_.waitForFinished(1000);
        }
    }
}

void ProcessNodeLink::setCommand(const QString& program, const QStringList& arguments,
                                 const QString& workingDirectory) {
    program_ = program;
    process_.setProgram(program);
    process_.setArguments(arguments);
    process_.setWorkingDirectory(workingDirectory);
}

void ProcessNodeLink::endWith(const QString& reason) {
    if (closedSignalled_) {
        return;
    }
    closedSignalled_ = true;
    // A copy: the reason may live in an object a receiver of closed() destroys (a provider's
    // record of a node whose create failed), and later receivers still read it.
    const QString why = reason;
    if (process_.state() != QProcess::NotRunning) {
        process_.kill();
        process_.waitForFinished(2000);
    }
    emit closed(why);
}

void ProcessNodeLink::open() {
    closedSignalled_ = false;
    process_.start(QIODevice::ReadWrite);
}

bool ProcessNodeLink::isOpen() const {
    return process_.state() == QProcess::Running;
}

void NodeLink::send(const node::Op& op) {
    sendLine(QByteArray::fromStdString(node::encodeOp(op)));
}

void ProcessNodeLink::sendLine(const QByteArray& line) {
    if (process_.state() == QProcess::NotRunning) {
        return;
    }
    outbox_.append(line);
    if (!flushQueued_) {
        flushQueued_ = true;
        QMetaObject::invokeMethod(this, &ProcessNodeLink::flushOutbox, Qt::QueuedConnection);
    }
}

void ProcessNodeLink::flushOutbox() {
    flushQueued_ = false;
    if (!outbox_.isEmpty() && process_.state() != QProcess::NotRunning) {
        process_.write(outbox_);
    }
    outbox_.clear();
}

void ProcessNodeLink::shutdown() {
    send(node::ShutdownOp{});
    flushOutbox();
    process_.closeWriteChannel();
}

void ProcessNodeLink::abort() {
    // Trials run with a parent-death signal: killing the agent kills them too.
    closedSignalled_ = true;
    process_.kill();
    process_.waitForFinished(2000);
}

void ProcessNodeLink::readAvailable() {
    if (!receive(process_.readAllStandardOutput()) && !closedSignalled_) {
        closedSignalled_ = true;
        process_.kill();
        emit closed(tr("the worker agent sent a line longer than %1 bytes").arg(kMaxNodeLinkLine));
    }
}

void ProcessNodeLink::readErrors() {
    // The agent's own diagnostics; forwarded so they are not lost.
    const QByteArray text = process_.readAllStandardError();
    for (const QByteArray& line : text.split('\n')) {
        if (!line.trimmed().isEmpty()) {
            lastError_ = QString::fromLocal8Bit(line.trimmed());
            qWarning("%s: %s", qPrintable(QFileInfo(program_).fileName()), line.constData());
        }
    }
}

}  // namespace tunedeck
