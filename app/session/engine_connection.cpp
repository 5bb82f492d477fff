#include "session/engine_connection.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>

namespace tunedeck::app {

EngineConnection::EngineConnection(QObject* parent) : QObject(parent) {
    description_ = tr("Not attached to an engine");
    connect(&client_, &client::EngineClient::ready, this, [this](const api::HelloAnswer& hello) {
        // Folders are this machine's only when the engine is; a remote one's come over the wire.
        resultsRoot_ = remote_ ? QString() : hello.results;
        serverResults_ = hello.results;
        description_ = server_.isEmpty()
                           ? tr("Engine %1, results in %2").arg(hello.engine, hello.results)
                           : tr("Engine %1 on %2, results in %3 there")
                                 .arg(hello.engine, server_, hello.results);
        emit descriptionChanged(description_);
        emit ready();
        refreshList();
    });
    connect(&client_, &client::EngineClient::connectionLost, this, [this](const QString& reason) {
        description_ = tr("Engine connection lost (%1); reconnecting...").arg(reason);
        emit descriptionChanged(description_);
    });
}

void EngineConnection::beginAttach(bool remote, const QString& server) {
    emit detached();  // another engine: the same name there is another experiment
    remote_ = remote;
    server_ = server;
    resultsRoot_.clear();
    serverResults_.clear();
    listedNames_.clear();
    running_.clear();
    served_.clear();
}

void EngineConnection::attachLocal(const QString& socketPath, const QString& engineBinary,
                                   bool startWhenNone) {
    beginAttach(false, {});
    engineBinary_ = engineBinary;
    client_.setLocalServer(socketPath);
    // No engine there yet: start one, once, and let the client's retries find it.
    if (!engineBinary_.isEmpty() && startWhenNone && !QFileInfo::exists(socketPath)) {
        QProcess::startDetached(engineBinary_, {QStringLiteral("serve"), QStringLiteral("--listen"),
                                                QStringLiteral("unix:") + socketPath});
    }
    client_.open(500);
}

void EngineConnection::attachThroughTunnel(const QString& socketPath, const QString& server) {
    beginAttach(true, server);  // before its hello arrives: the folders it names are the server's
    engineBinary_.clear();      // no engine is ever started for a server
    client_.setLocalServer(socketPath);
    client_.open(500);
}

void EngineConnection::adoptTunnel(client::SshTunnel* tunnel) {
    if (tunnel_ && tunnel_ != tunnel) {
        delete tunnel_.data();
    }
    tunnel_ = tunnel;
    tunnel->setParent(this);
}

void EngineConnection::attachTcp(const QString& host, quint16 port, const QString& token) {
    beginAttach(true, QStringLiteral("%1:%2").arg(host).arg(port));
    client_.setTcpServer(host, port, token);
    client_.open(1000);
}

QString EngineConnection::folderOf(const QString& name) const {
    return (resultsRoot_.isEmpty() ? serverResults_ : resultsRoot_) + '/' + name;
}

void EngineConnection::refreshList() {
    if (!client_.isReady()) {
        return;
    }
    client_.listExperiments(
        [this](const Status& status, const std::vector<api::ExperimentListEntry>& list) {
            if (!status) {
                return;
            }
            listedNames_.clear();
            running_.clear();
            served_.clear();
            for (const api::ExperimentListEntry& e : list) {
                listedNames_ << e.experiment;
                if (e.served) {
                    served_ << e.experiment;
                }
                if (e.served && e.status == QLatin1String("running")) {
                    running_ << e.experiment;
                }
            }
            emit listed(list);
        });
}

QStringList EngineConnection::experimentFolders() const {
    QStringList folders;
    for (auto name = listedNames_.rbegin(); name != listedNames_.rend() && !resultsRoot_.isEmpty();
         ++name) {
        folders << QDir(resultsRoot_).filePath(*name);  // newest first, as the list shows them
    }
    return folders;
}

}  // namespace tunedeck::app
