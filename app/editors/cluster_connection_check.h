// "Test connection" of a cluster file: every node at once, each over its own SSH session driven by
// this thread's event loop (nothing blocks the GUI), logging in with the file's `auth`. A node
// ends reachable (how long the login took, and a short probe of the machine) or refused, with
// the reason in plain words. An unknown host key is shown by its SHA256 fingerprint and written
// to the file's known_hosts only by accept(), the user's word, and only if the host still
// presents that very key; a changed key is refused with both fingerprints, whatever the user says.
// Thread-safety: GUI thread only (the sessions live on the thread that created the check).
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/cluster_spec.h"

class QLabel;
class QTableWidget;

namespace tunedeck::app {

struct NodeCheckResult {
    enum class State {
        Connecting,
        Reachable,
        HostKeyUnknown,  // accept() may trust it
        HostKeyChanged,
        AuthFailed,
        Unreachable,
        Failed,  // not an SSH server, a broken stream, cancelled
    };
    QString node;  // as `tunedeck-engine cluster status` names it
    State state = State::Connecting;
    QString fingerprint;       // "SHA256:..." of the host key, once the handshake got that far
    QString message;           // why it failed, in the user's words
    qint64 loginMs = -1;       // TCP connect, SSH handshake and authentication
    QString machine;           // the probe: "Linux 6.1.0-18-amd64, 16 CPU(s)"
    bool keyAccepted = false;  // this check added the host key to known_hosts

    bool isDone() const { return state != State::Connecting; }
};

class ClusterConnectionCheck : public QObject {
    Q_OBJECT
  public:
    explicit ClusterConnectionCheck(QObject* parent = nullptr);
    ~ClusterConnectionCheck() override;

    // Checks every node of `cluster` (none for provider local); a check still running is dropped.
    void start(const ClusterSpec& cluster);
    // The user compared the fingerprint shown for node `index` and trusts it: connects again and,
    // if the host presents that key, appends it to known_hosts and finishes the check.
    void accept(int index);
    // Drops every session; nodes still connecting end as Failed, "cancelled".
    void cancel();
    bool isRunning() const;
    const QList<NodeCheckResult>& results() const { return results_; }
    QString knownHostsFile() const { return knownHosts_; }

    // Bounds connect, handshake and login; then the probe gets as long again.
    static constexpr int kTimeoutMs = 10000;
    // What the probe runs on each node: kernel and release, then the number of CPUs.
    static constexpr const char* kProbeCommand = "uname -sr; nproc";

  signals:
    void nodeChanged(int index);
    // Every node is done (also after an accept() is done).
    void finished();

  private:
    struct Node;
    void connectNode(int index, const QString& acceptFingerprint);
    void onConnected(int index);
    void onFailed(int index, int kind, const QString& message);
    void onProbeDone(int index, int exitStatus);
    bool recordAcceptedKey(int index);
    void finishNode(int index);
    void dropSession(int index);

    QList<NodeCheckResult> results_;
    std::vector<std::unique_ptr<Node>> nodes_;
    QString knownHosts_;
};

// The results of a check as a table under the editor: one row per node with its state, login
// time, host key and machine, an Accept button where a key is unknown, and the selected node's
// whole message below. Thread-safety: GUI thread only.
class ClusterConnectionView : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterConnectionView(ClusterConnectionCheck* check, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    // The message of the selected node (the first one in trouble unless the user picked one).
    QString details() const;

  private:
    void showNode(int index);
    void showDetails();

    ClusterConnectionCheck* check_;
    QTableWidget* table_;
    QLabel* details_;
};

}  // namespace tunedeck::app
