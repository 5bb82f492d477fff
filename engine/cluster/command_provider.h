// The command node provider: nodes are made, listed and ended by the user's own commands (a
// cloud's CLI, kubectl, a site's scripts), so any cloud or Kubernetes works without a cloud SDK
// in the engine. `create` starts node {node} of type {type} and prints "ID [ADDRESS]" as its last
// line; `connect` is a command whose stdin and stdout are the node's agent link (`kubectl exec -i
// {id} -- tunedeck-worker`, `ssh user@{address} tunedeck-worker`), run like srun is for Slurm;
// `terminate` ends node {id}; `list` prints the ids of the cluster's live nodes, and a node
// missing from two lists in a row is lost (a reclaimed spot instance, a deleted pod). Every
// command runs as /bin/sh -c in the cluster file's folder, never blocking the event loop; the
// placeholders are in CLUSTER.md.
// Thread-safety: lives on the thread of the event loop that created it.
#pragma once

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>
#include <map>
#include <set>

#include "cluster/node_provider.h"
#include "cluster/provider_command.h"

namespace tunedeck {

// The values of one command's placeholders: "node", "id", "node_config.zone", ...
using PlaceholderValues = QMap<QString, QString>;

// The shell command line of `command`, each placeholder's value inserted as one shell word (as
// written when it is a plain word of letters, digits and ._:/@%+=,-; single-quoted otherwise).
// Pure; thread-safe.
QString expandCommand(const CommandTemplate& command, const PlaceholderValues& values);

class CommandNodeLink;

class CommandNodeProvider : public QObject, public NodeProvider {
    Q_OBJECT
  public:
    // `workerPath` is this machine's tunedeck-worker ({worker}); nodes are named
    // `namePrefix-1`, `namePrefix-2`, ... ({node}).
    CommandNodeProvider(ClusterSpec cluster, QString workerPath, QString namePrefix,
                        QObject* parent = nullptr);
    // Waits for create commands still running and terminates what they made, then for the
    // terminate commands: no node is left behind (and billed) by an engine that exits.
    ~CommandNodeProvider() override;

    bool elastic() const override { return true; }
    // Starts the create command at once; the node's link connects once it has finished.
    std::optional<ProviderNode> createNode(const QString& type, QString* error) override;
    // The ids `list` prints now (blocking: for `cluster status` and `cluster down`).
    std::vector<ProviderNode> listNodes() override;
    // Runs the terminate command (after the create command, when that still runs).
    void terminateNode(const QString& id) override;
    std::unique_ptr<NodeLink> openLink(const ProviderNode& node) override;

    // `cluster down`: terminates every node `list` prints, this engine's or not, and waits for
    // the commands; `terminated` gets their ids. False, with `problems` naming each failure,
    // when one failed.
    bool terminateEveryListedNode(QStringList* terminated, QStringList* problems);
    // "tunedeck-CLUSTER-XXXXXX": lower-case letters, digits and '-', as pod and instance names
    // require; the six random hex digits keep two engines' nodes apart.
    static QString uniqueNamePrefix(const QString& clusterName);
    // The ids `list` prints now (blocking); nothing, and `failure` says why, when it failed.
    std::optional<QStringList> listedIds(QString* failure) const;

  private:
    friend class CommandNodeLink;
    enum class Stage { Creating, Created, Failed };
    struct Node {
        QString type;
        Stage stage = Stage::Creating;
        QString id;       // from create's output; the node's name when it printed nothing
        QString address;  // from create's output; may be empty
        QString failure;  // why create failed
        bool terminateWhenCreated = false;
        bool lost = false;
        int missedLists = 0;
        QPointer<CommandNodeLink> link;
    };

    PlaceholderValues valuesOf(const QString& name, const Node& node) const;
    // Runs a command to its end (blocking).
    ProviderCommandResult runNow(const QString& what, const CommandTemplate& command,
                                 const PlaceholderValues& values) const;
    QProcess* startCommand(const QString& commandLine);
    void onCreated(const QString& name, QProcess* process);
    void runTerminate(const QString& name, const QString& id);
    void listTick();
    void onListed(QProcess* process, const std::set<QString>& checked);
    // Called by a node's link when it opens: connects now or once create has finished.
    void attach(const QString& name, CommandNodeLink* link);

    ClusterSpec cluster_;
    QString workerPath_;
    QString namePrefix_;
    QString workingDir_;  // the cluster file's folder
    int nextNode_ = 1;
    std::map<QString, Node> nodes_;  // by name ({node})
    std::set<QProcess*> running_;    // create and terminate commands in flight
    QTimer listTimer_;
    QProcess* listing_ = nullptr;
    bool listWarned_ = false;
};

}  // namespace tunedeck
