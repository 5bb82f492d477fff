// A node is "a worker agent at the other end of a byte stream" (DESIGN.md). NodeLink frames that
// stream into the node protocol's typed messages both ways (node_protocol/node_protocol.h);
// LocalNodeLink runs the agent on this machine over a pipe, SshNodeLink (cluster/ssh_node_link.h)
// on another machine over one SSH session. Thread-safety: a link lives on the thread of the event
// loop that created it.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/line_framer.h"
#include "node_protocol/node_protocol.h"

namespace tunedeck {

// Longest line accepted from an agent; longer ones mean a broken agent or stream.
inline constexpr qsizetype kMaxNodeLinkLine = 4 * 1024 * 1024;

// One line of an agent's stream as the engine reads it: the event it holds, or why it holds none
// (NodeLink::receive then warns and drops the line). Pure; thread-safe.
node::Decoded<node::Event> parseAgentLine(QByteArrayView line);

// The trial's line a TrialLine relays, as the trial protocol's reader takes it (core's
// decodeTrialLine); nothing when the agent relayed no JSON object.
std::optional<QJsonObject> relayedTrialLine(const node::TrialLine& line);

// An event as the JSON object it travelled as: what the history keeps of a node's hello, and
// the sample a node_usage event is made of.
QJsonObject jsonOf(const node::Event& event);

// Where a node keeps what the engine keeps in a folder of this machine. Empty for nodes that see
// this machine's files (the local agent, shared storage): every path is then the same there.
class PathMap {
  public:
    void add(const QString& headDir, const QString& nodeDir);
    // The longest mapped folder that holds `path` decides; other paths are returned unchanged.
    QString toNode(const QString& path) const;
    QString toHead(const QString& path) const;
    bool isEmpty() const { return dirs_.empty(); }

  private:
    std::vector<std::pair<QString, QString>> dirs_;  // head folder, node folder
};

// Copies folders between this machine and a node that does not share its files. Requests run in
// the background; `done` is called once, on the link's thread.
class NodeFiles {
  public:
    using Done = std::function<void(bool ok, const QString& error)>;
    virtual ~NodeFiles() = default;
    virtual void fetchFolder(const QString& nodeDir, const QString& headDir, Done done) = 0;
    virtual void pushFolder(const QString& headDir, const QString& nodeDir, Done done) = 0;
    // What changed in the node's folder since the last fetch, into `headDir` (made as needed),
    // paths matching `exclude` (tree_sync.h's globs) left out; nothing is deleted here.
    virtual void fetchChanges(const QString& nodeDir, const QString& headDir,
                              const QStringList& exclude, Done done) = 0;
};

class NodeLink : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;
    ~NodeLink() override = default;

    virtual QString nodeId() const = 0;
    virtual void open() = 0;
    // Queues one op for the agent; ops arrive in order.
    void send(const node::Op& op);
    // The same for an op already encoded as one line (with its newline).
    virtual void sendLine(const QByteArray& line) = 0;
    // Asks the agent to stop its trials and exit; `closed` follows.
    virtual void shutdown() = 0;
    // Ends the link now, without waiting for trials (a second Ctrl-C); they die with the agent.
    virtual void abort() = 0;
    virtual bool isOpen() const = 0;
    // Valid once the agent has said hello.
    virtual const PathMap& paths() const { return noPaths_; }
    // Null when the node sees this machine's files.
    virtual NodeFiles* files() { return nullptr; }

  signals:
    void messageReceived(const tunedeck::node::Event& event);
    // The stream ended or broke; `reason` says why in the user's words.
    void closed(const QString& reason);

  protected:
    // Frames `data` from the agent into messages (`messageReceived`); false when a line was
    // longer than kMaxNodeLinkLine, after which the stream cannot be trusted.
    bool receive(const QByteArray& data);

  private:
    PathMap noPaths_;
    LineFramer framer_{kMaxNodeLinkLine};
};

// An agent started as a process of this machine, its stdin and stdout the link: the local agent
// itself, or a command that forwards both to an agent elsewhere (`srun ... tunedeck-worker` on a
// Slurm allocation, `kubectl exec -i POD -- tunedeck-worker`, a user's own connect command).
// The agent kills its trials when its stdin closes, so ending the process ends the node.
class ProcessNodeLink : public NodeLink {
    Q_OBJECT
  public:
    ProcessNodeLink(QString nodeId, QString program, QStringList arguments,
                    QObject* parent = nullptr);
    ~ProcessNodeLink() override;

    QString nodeId() const override { return nodeId_; }
    void open() override;
    void sendLine(const QByteArray& line) override;
    void shutdown() override;
    void abort() override;
    bool isOpen() const override;

  protected:
    // Why the link closed when the process exited, in the user's words; `lastError` is the last
    // line the process wrote on stderr.
    virtual QString exitReason(int code, bool crashed, const QString& lastError) const;
    // For a link whose command is known only later (the command provider's connect, once its
    // create command has said where the node is): set before open().
    void setCommand(const QString& program, const QStringList& arguments,
                    const QString& workingDirectory = QString());
    // Ends the link for a reason found elsewhere (the provider says the node is gone): the
    // process is killed and `closed(reason)` is emitted, once.
    void endWith(const QString& reason);

  private:
    void readAvailable();
    void readErrors();
    // Messages are written in one system call per event-loop pass: answering a batch of reports
    // with one write wakes the agent once instead of once per answer.
    void flushOutbox();

    QString nodeId_;
    QString program_;
    QProcess process_;
    QByteArray outbox_;
    QString lastError_;
    bool flushQueued_ = false;
    bool closedSignalled_ = false;
};

// The agent on this machine (node "local").
class LocalNodeLink : public ProcessNodeLink {
    Q_OBJECT
  public:
    explicit LocalNodeLink(QString workerPath, QObject* parent = nullptr)
        : ProcessNodeLink(QStringLiteral("local"), std::move(workerPath), {}, parent) {}
};

}  // namespace tunedeck
