#include "cluster/command_provider.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <algorithm>

#include "cluster/node_link.h"
#include "cluster/provider_command.h"
#include "cluster/remote_command.h"
#include "core/counted.h"

namespace tunedeck {

namespace {

// A cloud's create can take minutes (gcloud waits for the machine, a script may wait for its
// sshd); past this the node is given up.
constexpr int kCreateTimeoutMs = 15 * 60 * 1000;
// list and terminate are one API call each.
constexpr int kCommandTimeoutMs = 2 * 60 * 1000;
// A cloud's list may not show a node made a moment ago (AWS's describe-instances is eventually
// consistent): a node is lost only when two lists in a row, both started after its create
// returned, leave it out.
constexpr int kMissedListsForLoss = 2;

QString quoteWord(const QString& value) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9._:/@%+=,-]+$"));
    return plain.match(value).hasMatch() ? value : shellQuote(value);
}

QStringList wordsOf(const QByteArray& output) {
    return QString::fromUtf8(output).split(QRegularExpression(QStringLiteral("\\s+")),
                                           Qt::SkipEmptyParts);
}

}  // namespace

QString expandCommand(const CommandTemplate& command, const PlaceholderValues& values) {
    QString line;
    for (const CommandTemplate::Part& part : command.parts) {
        line += part.placeholder ? quoteWord(values.value(part.text)) : part.text;
    }
    return line;
}

// The agent of one node: the connect command, started once create has said where the node is.
class CommandNodeLink : public ProcessNodeLink {
  public:
    CommandNodeLink(CommandNodeProvider* provider, const QString& nodeId)
        : ProcessNodeLink(nodeId, QStringLiteral("/bin/sh"), {}), provider_(provider) {
        connect(this, &NodeLink::closed, this, [this] { ended_ = true; });
    }

    void open() override {
        if (provider_) {
            provider_->attach(nodeId(), this);
        } else {
            endWith(QStringLiteral("the engine is ending"));
        }
    }

    // Create has finished: connect, or say why the node never came.
    void created(const QString& commandLine, const QString& workingDir, const QString& failure) {
        if (ended_) {
            return;
        }
        if (!failure.isEmpty()) {
            endWith(failure);
            return;
        }
        setCommand(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), commandLine}, workingDir);
        ProcessNodeLink::open();
    }

    void lose(const QString& reason) { endWith(reason); }

  protected:
    QString exitReason(int code, bool crashed, const QString& lastError) const override {
        QString reason =
            crashed ? QStringLiteral("its connect command crashed")
                    : QStringLiteral("its connect command exited with status %1").arg(code);
        if (!lastError.isEmpty()) {
            reason += QStringLiteral(": ") + lastError;
        }
        return reason;
    }

  private:
    QPointer<CommandNodeProvider> provider_;
    bool ended_ = false;
};

CommandNodeProvider::CommandNodeProvider(ClusterSpec cluster, QString workerPath,
                                         QString namePrefix, QObject* parent)
    : QObject(parent),
      cluster_(std::move(cluster)),
      workerPath_(std::move(workerPath)),
      namePrefix_(std::move(namePrefix)),
      workingDir_(QFileInfo(cluster_.sourceFile).absolutePath()) {
    listTimer_.setInterval(int(cluster_.commands.listIntervalS * 1000));
    connect(&listTimer_, &QTimer::timeout, this, &CommandNodeProvider::listTick);
}

CommandNodeProvider::~CommandNodeProvider() {
    listTimer_.stop();
    int creating = 0;
    for (auto& [name, node] : nodes_) {
        node.terminateWhenCreated = true;  // a create still running: its node goes at once
        creating += node.stage == Stage::Creating ? 1 : 0;
    }
    if (creating > 0) {
        qWarning("waiting for %s of the %s cluster to finish, to terminate what they make",
                 qPrintable(counted(creating, "create command")), qPrintable(cluster_.clusterName));
    }
    // Finishing a create starts its terminate: wait until nothing runs any more.
    while (!running_.empty()) {
        QProcess* process = *running_.begin();
        if (!process->waitForFinished(kCreateTimeoutMs)) {
            qWarning("a command of the %s cluster did not finish: %s",
                     qPrintable(cluster_.clusterName), qPrintable(process->arguments().join(' ')));
            process->kill();
            process->waitForFinished(1000);
            running_.erase(process);
        }
    }
}

QString CommandNodeProvider::uniqueNamePrefix(const QString& clusterName) {
    QString cluster = clusterName.toLower();
    static const QRegularExpression other(QStringLiteral("[^a-z0-9-]+"));
    cluster.replace(other, QStringLiteral("-"));
    const quint32 random = QRandomGenerator::system()->generate() & 0xffffffu;
    return QStringLiteral("tunedeck-%1-%2")
        .arg(cluster.left(40))
        .arg(random, 6, 16, QLatin1Char('0'));
}

PlaceholderValues CommandNodeProvider::valuesOf(const QString& name, const Node& node) const {
    PlaceholderValues values{{QStringLiteral("node"), name},
                             {QStringLiteral("id"), node.id},
                             {QStringLiteral("address"), node.address},
                             {QStringLiteral("type"), node.type},
                             {QStringLiteral("cluster"), cluster_.clusterName},
                             {QStringLiteral("worker"), workerPath_}};
    for (const ClusterNodeType& type : cluster_.nodeTypes) {
        if (type.name != node.type) {
            continue;
        }
        values.insert(QStringLiteral("cpu"), QString::number(type.cpu));
        values.insert(QStringLiteral("gpu"), QString::number(type.gpu));
        for (auto it = type.nodeConfig.begin(); it != type.nodeConfig.end(); ++it) {
            values.insert(QStringLiteral("node_config.") + it.key(), it.value());
        }
    }
    return values;
}

QProcess* CommandNodeProvider::startCommand(const QString& commandLine) {
    auto* process = new QProcess(this);
    process->setWorkingDirectory(workingDir_);
    process->setProgram(QStringLiteral("/bin/sh"));
    process->setArguments({QStringLiteral("-c"), commandLine});
    process->setStandardInputFile(QProcess::nullDevice());
    running_.insert(process);
    process->start();
    return process;
}

std::optional<ProviderNode> CommandNodeProvider::createNode(const QString& type, QString* error) {
    const auto known = std::find_if(cluster_.nodeTypes.begin(), cluster_.nodeTypes.end(),
                                    [&](const ClusterNodeType& t) { return t.name == type; });
    if (known == cluster_.nodeTypes.end()) {
        if (error) {
            *error = QStringLiteral("no node type '%1'").arg(type);
        }
        return std::nullopt;
    }
    ProviderNode created;
    created.id = QStringLiteral("%1-%2").arg(namePrefix_).arg(nextNode_++);
    created.type = type;
    created.resources.cpu = known->cpu;
    created.resources.gpu = double(known->gpu);
    Node& node = nodes_[created.id];
    node.type = type;
    node.id = created.id;
    QProcess* process =
        startCommand(expandCommand(cluster_.commands.create, valuesOf(created.id, node)));
    const QString name = created.id;
    connect(process, &QProcess::finished, this,
            [this, name, process] { onCreated(name, process); });
    connect(process, &QProcess::errorOccurred, this,
            [this, name, process](QProcess::ProcessError e) {
                if (e == QProcess::FailedToStart) {
                    onCreated(name, process);
                }
            });
    QTimer::singleShot(kCreateTimeoutMs, process, [process] {
        if (process->state() != QProcess::NotRunning) {
            process->setProperty("timedOut", true);
            process->kill();
        }
    });
    if (!listTimer_.isActive()) {
        listTimer_.start();
    }
    return created;
}

void CommandNodeProvider::onCreated(const QString& name, QProcess* process) {
    if (!running_.erase(process)) {
        return;  // already handled (a failed start reports twice)
    }
    process->deleteLater();
    auto it = nodes_.find(name);
    if (it == nodes_.end()) {
        return;
    }
    Node& node = it->second;
    const bool ok = providerCommandSucceeded(*process);
    if (ok) {
        QList<QByteArray> lines = process->readAllStandardOutput().trimmed().split('\n');
        const QStringList words = wordsOf(lines.isEmpty() ? QByteArray() : lines.last());
        node.id = words.value(0, name);
        node.address = words.value(1);
        node.stage = Stage::Created;
    } else {
        node.stage = Stage::Failed;
        node.failure = providerCommandFailure(QStringLiteral("create"), *process,
                                              process->property("timedOut").toBool());
    }
    if (node.terminateWhenCreated) {
        if (ok) {
            runTerminate(name, node.id);
        } else if (onTerminated) {
            onTerminated(name);  // it never came up: nothing to give back
        }
        nodes_.erase(it);
        return;
    }
    if (node.link) {
        node.link->created(expandCommand(cluster_.commands.connect, valuesOf(name, node)),
                           workingDir_, node.failure);
    }
}

void CommandNodeProvider::attach(const QString& name, CommandNodeLink* link) {
    auto it = nodes_.find(name);
    if (it == nodes_.end()) {
        link->created(QString(), QString(), QStringLiteral("the node was terminated"));
        return;
    }
    Node& node = it->second;
    node.link = link;
    if (node.stage != Stage::Creating) {
        link->created(expandCommand(cluster_.commands.connect, valuesOf(name, node)), workingDir_,
                      node.failure);
    }
}

std::unique_ptr<NodeLink> CommandNodeProvider::openLink(const ProviderNode& node) {
    return std::make_unique<CommandNodeLink>(this, node.id);
}

void CommandNodeProvider::terminateNode(const QString& name) {
    auto it = nodes_.find(name);
    if (it == nodes_.end()) {
        return;
    }
    if (it->second.stage == Stage::Creating) {
        it->second.terminateWhenCreated = true;
        return;
    }
    if (it->second.stage == Stage::Created) {
        runTerminate(name, it->second.id);
    } else if (onTerminated) {
        onTerminated(name);  // its create failed: nothing to give back
    }
    nodes_.erase(it);
}

void CommandNodeProvider::runTerminate(const QString& name, const QString& id) {
    PlaceholderValues values{{QStringLiteral("id"), id},
                             {QStringLiteral("cluster"), cluster_.clusterName}};
    QProcess* process = startCommand(expandCommand(cluster_.commands.terminate, values));
    const auto done = [this, process, name, id] {
        if (!running_.erase(process)) {
            return;
        }
        process->deleteLater();
        if (!providerCommandSucceeded(*process)) {
            qWarning(
                "node %s may still run (and be billed): %s", qPrintable(id),
                qPrintable(providerCommandFailure(QStringLiteral("terminate"), *process, false)));
        } else if (onTerminated) {
            onTerminated(name);
        }
    };
    connect(process, &QProcess::finished, this, done);
    connect(process, &QProcess::errorOccurred, this, [done](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            done();
        }
    });
}

void CommandNodeProvider::listTick() {
    if (listing_) {
        return;  // the last list has not answered yet
    }
    std::set<QString> checked;  // nodes whose create returned before this list starts
    for (const auto& [name, node] : nodes_) {
        if (node.stage == Stage::Created && !node.lost) {
            checked.insert(name);
        }
    }
    if (checked.empty()) {
        return;
    }
    listing_ = new QProcess(this);
    listing_->setWorkingDirectory(workingDir_);
    listing_->setStandardInputFile(QProcess::nullDevice());
    QProcess* process = listing_;
    connect(process, &QProcess::finished, this,
            [this, process, checked] { onListed(process, checked); });
    connect(process, &QProcess::errorOccurred, this,
            [this, process, checked](QProcess::ProcessError e) {
                if (e == QProcess::FailedToStart) {
                    onListed(process, checked);
                }
            });
    QTimer::singleShot(kCommandTimeoutMs, process, [process] { process->kill(); });
    process->start(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"), expandCommand(cluster_.commands.list,
                                             {{QStringLiteral("cluster"), cluster_.clusterName}})});
}

void CommandNodeProvider::onListed(QProcess* process, const std::set<QString>& checked) {
    if (listing_ != process) {
        return;
    }
    listing_ = nullptr;
    process->deleteLater();
    if (!providerCommandSucceeded(*process)) {
        if (!listWarned_) {
            listWarned_ = true;
            qWarning("%s; a node gone behind the engine's back is not noticed until it works",
                     qPrintable(providerCommandFailure(QStringLiteral("list"), *process, false)));
        }
        return;
    }
    listWarned_ = false;
    const QStringList listed = wordsOf(process->readAllStandardOutput());
    for (const QString& name : checked) {
        auto it = nodes_.find(name);
        if (it == nodes_.end() || it->second.lost) {
            continue;
        }
        Node& node = it->second;
        node.missedLists = listed.contains(node.id) ? 0 : node.missedLists + 1;
        if (node.missedLists >= kMissedListsForLoss) {
            node.lost = true;
            if (node.link) {
                node.link->lose(
                    QStringLiteral("it is gone from the output of the provider's "
                                   "list command (reclaimed, preempted or deleted)"));
            }
        }
    }
}

ProviderCommandResult CommandNodeProvider::runNow(const QString& what,
                                                  const CommandTemplate& command,
                                                  const PlaceholderValues& values) const {
    return runProviderCommand(what, QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), expandCommand(command, values)}, workingDir_,
                              kCommandTimeoutMs);
}

std::optional<QStringList> CommandNodeProvider::listedIds(QString* failure) const {
    const ProviderCommandResult list = runNow(QStringLiteral("list"), cluster_.commands.list,
                                              {{QStringLiteral("cluster"), cluster_.clusterName}});
    if (!list.ok) {
        *failure = list.failure;
        return std::nullopt;
    }
    return wordsOf(list.output);
}

std::vector<ProviderNode> CommandNodeProvider::listNodes() {
    std::vector<ProviderNode> nodes;
    QString failure;
    const std::optional<QStringList> ids = listedIds(&failure);
    if (!ids) {
        qWarning("%s", qPrintable(failure));
        return nodes;
    }
    for (const QString& id : *ids) {
        ProviderNode node;
        node.id = id;
        for (const auto& [name, known] : nodes_) {
            if (known.id == id) {
                node.id = name;
                node.type = known.type;
            }
        }
        nodes.push_back(std::move(node));
    }
    return nodes;
}

bool CommandNodeProvider::terminateEveryListedNode(QStringList* terminated, QStringList* problems) {
    QString failure;
    const std::optional<QStringList> ids = listedIds(&failure);
    if (!ids) {
        problems->append(failure);
        return false;
    }
    bool ok = true;
    for (const QString& id : *ids) {
        const ProviderCommandResult result =
            runNow(QStringLiteral("terminate"), cluster_.commands.terminate,
                   {{QStringLiteral("id"), id}, {QStringLiteral("cluster"), cluster_.clusterName}});
        if (result.ok) {
            terminated->append(id);
        } else {
            problems->append(id + QStringLiteral(": ") + result.failure);
            ok = false;
        }
    }
    return ok;
}

}  // namespace tunedeck
