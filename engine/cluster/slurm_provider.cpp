#include "cluster/slurm_provider.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>

#include "cluster/provider_command.h"

namespace tunedeck {

namespace {

// squeue and scancel answer within a second on a healthy controller; a slow one must not hold
// the engine's event loop for long.
constexpr int kSlurmCommandTimeoutMs = 10000;

// The agent of one allocation: srun's exit is the allocation's end, said in Slurm's words.
class SlurmNodeLink : public ProcessNodeLink {
  public:
    SlurmNodeLink(const QString& nodeId, const QString& jobName, const QStringList& arguments)
        : ProcessNodeLink(nodeId, QStringLiteral("srun"), arguments), jobName_(jobName) {}

  protected:
    QString exitReason(int code, bool crashed, const QString& lastError) const override {
        QString reason = crashed ? QStringLiteral("srun of Slurm job %1 crashed").arg(jobName_)
                                 : QStringLiteral(
                                       "its Slurm allocation ended (srun of job %1 exited with "
                                       "status %2)")
                                       .arg(jobName_)
                                       .arg(code);
        if (!lastError.isEmpty()) {
            reason += QStringLiteral(": ") + lastError;
        }
        return reason;
    }

  private:
    QString jobName_;
};

// Runs a Slurm command and returns its standard output; nothing when it failed.
std::optional<QByteArray> runSlurmCommand(const QString& program, const QStringList& arguments) {
    ProviderCommandResult result =
        runProviderCommand(program, program, arguments, QString(), kSlurmCommandTimeoutMs);
    if (!result.ok) {
        return std::nullopt;
    }
    return result.output;
}

}  // namespace

QString slurmClusterComment(const QString& clusterName) {
    return QStringLiteral("tunedeck-cluster=") + clusterName;
}

QStringList srunArguments(const ClusterNodeType& type, const QString& jobName,
                          const QString& workerPath, const QString& clusterName) {
    const SlurmNodeConfig& slurm = type.slurm;
    QStringList args = {QStringLiteral("--job-name=%1").arg(jobName), QStringLiteral("--nodes=1"),
                        QStringLiteral("--ntasks=1"),
                        QStringLiteral("--cpus-per-task=%1").arg(slurm.cpusPerTask)};
    const auto add = [&args](const char* option, const QString& value) {
        if (!value.isEmpty()) {
            args << QStringLiteral("--%1=%2").arg(QLatin1String(option), value);
        }
    };
    add("partition", slurm.partition);
    if (slurm.gpus > 0) {
        args << QStringLiteral("--gres=gpu:%1").arg(slurm.gpus);
    }
    add("mem", slurm.mem);
    add("time", slurm.time);
    add("account", slurm.account);
    add("qos", slurm.qos);
    args << slurm.srunOptions;
    // After the user's options: `cluster down` finds the cluster's jobs by this exact comment
    // (a name prefix would also match the jobs of a cluster whose name starts the same).
    args << QStringLiteral("--comment=%1").arg(slurmClusterComment(clusterName));
    // --unbuffered: each line of the agent reaches the engine at once. --kill-on-bad-exit: the
    // step ends with the agent. The agent's stdin is srun's (task 0 only).
    args << QStringLiteral("--unbuffered") << QStringLiteral("--kill-on-bad-exit=1")
         << QStringLiteral("--input=0") << workerPath;
    return args;
}

SlurmNodeProvider::SlurmNodeProvider(ClusterSpec cluster, QString jobPrefix)
    : cluster_(std::move(cluster)), jobPrefix_(std::move(jobPrefix)) {}

SlurmNodeProvider::~SlurmNodeProvider() = default;

QString SlurmNodeProvider::uniqueJobPrefix(const QString& clusterName,
                                           const QString& experimentName) {
    const quint32 random = QRandomGenerator::system()->generate() & 0xffffffu;
    return QStringLiteral("tunedeck-%1-%2-%3")
        .arg(clusterName, experimentName)
        .arg(random, 6, 16, QLatin1Char('0'));
}

bool SlurmNodeProvider::cancelClusterJobs(const QString& clusterName, QStringList* cancelled,
                                          QString* failure) {
    const ProviderCommandResult queue =
        runProviderCommand(QStringLiteral("squeue"), QStringLiteral("squeue"),
                           {QStringLiteral("--noheader"), QStringLiteral("--format=%i|%j|%k")},
                           QString(), kSlurmCommandTimeoutMs);
    if (!queue.ok) {
        *failure = queue.failure;
        return false;
    }
    // A node's job is PREFIX.slurm-N with PREFIX = tunedeck-CLUSTER-EXPERIMENT-XXXXXX, and its
    // comment names the cluster exactly (the name alone cannot tell cluster `a` from `a-b`).
    const QRegularExpression ours(QStringLiteral("^tunedeck-.+-[0-9a-f]{6}\\.slurm-[0-9]+$"));
    const QString comment = slurmClusterComment(clusterName);
    for (const QByteArray& line : queue.output.split('\n')) {
        const QString text = QString::fromUtf8(line);
        const QStringList words = {text.section(QLatin1Char('|'), 0, 0).trimmed(),
                                   text.section(QLatin1Char('|'), 1, 1).trimmed()};
        if (!ours.match(words[1]).hasMatch() ||
            text.section(QLatin1Char('|'), 2).trimmed() != comment) {
            continue;
        }
        const ProviderCommandResult cancel =
            runProviderCommand(QStringLiteral("scancel"), QStringLiteral("scancel"), {words[0]},
                               QString(), kSlurmCommandTimeoutMs);
        if (!cancel.ok) {
            *failure = cancel.failure;
            return false;
        }
        cancelled->append(words[1]);
    }
    return true;
}

QString SlurmNodeProvider::jobName(const QString& nodeId) const {
    return jobPrefix_ + QLatin1Char('.') + nodeId;
}

std::optional<ProviderNode> SlurmNodeProvider::createNode(const QString& type, QString* error) {
    for (const ClusterNodeType& known : cluster_.nodeTypes) {
        if (known.name == type) {
            ProviderNode node;
            node.id = QStringLiteral("slurm-%1").arg(nextNode_++);
            node.type = type;
            node.resources.cpu = known.cpu;
            node.resources.gpu = double(known.gpu);
            typeOf_[node.id] = type;
            return node;  // the allocation is asked for when its link opens (srun)
        }
    }
    if (error) {
        *error = QStringLiteral("no node type '%1'").arg(type);
    }
    return std::nullopt;
}

std::vector<ProviderNode> SlurmNodeProvider::listNodes() {
    std::vector<ProviderNode> nodes;
    const std::optional<QByteArray> out = runSlurmCommand(
        QStringLiteral("squeue"), {QStringLiteral("--noheader"), QStringLiteral("--format=%j"),
                                   QStringLiteral("--states=PENDING,RUNNING,CONFIGURING,"
                                                  "COMPLETING,SUSPENDED")});
    if (!out) {
        return nodes;
    }
    const QString prefix = jobPrefix_ + QLatin1Char('.');
    for (const QByteArray& line : out->split('\n')) {
        const QString name = QString::fromUtf8(line.trimmed());
        if (!name.startsWith(prefix)) {
            continue;
        }
        ProviderNode node;
        node.id = name.mid(prefix.size());
        auto type = typeOf_.find(node.id);
        node.type = type == typeOf_.end() ? QString() : type->second;
        nodes.push_back(std::move(node));
    }
    return nodes;
}

void SlurmNodeProvider::terminateNode(const QString& id) {
    // Asynchronous: the allocation's end reaches the engine as the link's close, and scancel's
    // success (the request accepted) as onTerminated. The process owns itself, so it may outlive
    // this provider; it holds a copy of the callback, whose owner guards itself.
    auto* scancel = new QProcess;
    const std::function<void(const QString&)> terminated = onTerminated;
    QObject::connect(scancel, &QProcess::finished, scancel,
                     [scancel, terminated, id](int code, QProcess::ExitStatus status) {
                         if (status == QProcess::NormalExit && code == 0 && terminated) {
                             terminated(id);
                         }
                         scancel->deleteLater();
                     });
    QObject::connect(scancel, &QProcess::errorOccurred, scancel,
                     [scancel](QProcess::ProcessError error) {
                         if (error == QProcess::FailedToStart) {
                             scancel->deleteLater();
                         }
                     });
    scancel->start(QStringLiteral("scancel"), {QStringLiteral("--name=%1").arg(jobName(id))});
    typeOf_.erase(id);
}

void SlurmNodeProvider::terminateAll() {
    for (const ProviderNode& node : listNodes()) {
        runSlurmCommand(QStringLiteral("scancel"),
                        {QStringLiteral("--name=%1").arg(jobName(node.id))});
    }
    typeOf_.clear();
}

std::unique_ptr<NodeLink> SlurmNodeProvider::openLink(const ProviderNode& node) {
    for (const ClusterNodeType& type : cluster_.nodeTypes) {
        if (type.name == node.type) {
            const QString job = jobName(node.id);
            return std::make_unique<SlurmNodeLink>(
                node.id, job, srunArguments(type, job, cluster_.workerPath, cluster_.clusterName));
        }
    }
    return nullptr;
}

}  // namespace tunedeck
