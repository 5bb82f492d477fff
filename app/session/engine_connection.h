// The engine the window is attached to: the client (and the SSH tunnel it goes through, when
// it does), where the engine's folders are, and what its last list said it runs. Attaching to
// another engine forgets the old one's; nothing here knows what is shown. Thread-safety: GUI
// thread only.
#pragma once

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <vector>

#include "client/engine_client.h"
#include "client/ssh_tunnel.h"

namespace tunedeck::app {

class EngineConnection : public QObject {
    Q_OBJECT
  public:
    explicit EngineConnection(QObject* parent = nullptr);

    // Attaches to the engine at `socketPath`; with `startWhenNone`, starts `engineBinary`'s
    // `tunedeck-engine serve` there first when none answers. `engineBinary` is also the one
    // the cluster editor runs.
    void attachLocal(const QString& socketPath, const QString& engineBinary, bool startWhenNone);
    void attachTcp(const QString& host, quint16 port, const QString& token);
    // Through an SSH tunnel's local socket: like attachLocal, but the engine and its folders
    // are on `server`, and nothing is ever started here.
    void attachThroughTunnel(const QString& socketPath, const QString& server);
    // The tunnel the connection goes through from now on; an earlier one is closed.
    void adoptTunnel(client::SshTunnel* tunnel);

    client::EngineClient& client() { return client_; }
    client::SshTunnel* tunnel() const { return tunnel_; }
    bool isReady() const { return client_.isReady(); }
    // The engine runs on another machine: its folders are not here.
    bool remote() const { return remote_; }
    QString server() const { return server_; }  // as the user named it; empty: this one
    QString engineBinary() const { return engineBinary_; }
    // The engine's results root on this machine; empty when it is remote.
    QString resultsRoot() const { return resultsRoot_; }
    // The engine's results root as the server names it.
    QString serverResults() const { return serverResults_; }
    // The folder of the engine's experiment `name`, as it is reached from here.
    QString folderOf(const QString& name) const;
    // The status bar's words for the connection.
    QString description() const { return description_; }

    // Asks the engine for its experiments; listed() hears them.
    void refreshList();
    // By the engine's last list: the experiments it runs, and those whose process it still
    // holds (a run that has ended closes its files a moment after "finished").
    const QStringList& running() const { return running_; }
    const QStringList& served() const { return served_; }
    // The folders of the engine's experiments on this machine (none when remote).
    QStringList experimentFolders() const;

  signals:
    // Another engine is attached: nothing of the old one's may stay shown or subscribed.
    void detached();
    void ready();
    void descriptionChanged(const QString& text);
    void listed(const std::vector<tunedeck::api::ExperimentListEntry>& experiments);

  private:
    void beginAttach(bool remote, const QString& server);

    client::EngineClient client_;
    QPointer<client::SshTunnel> tunnel_;
    bool remote_ = false;
    QString server_;
    QString engineBinary_;
    QString resultsRoot_;
    QString serverResults_;
    QString description_;
    QStringList listedNames_;
    QStringList running_;
    QStringList served_;
};

}  // namespace tunedeck::app
