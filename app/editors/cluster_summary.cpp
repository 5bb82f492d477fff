#include "editors/cluster_summary.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include "core/cluster_spec.h"

namespace tunedeck::app {

namespace {

struct ClusterSummary {
    Q_DECLARE_TR_FUNCTIONS(ClusterSummary)
};

// "4 CPUs, 1 GPU" (a fraction of a CPU as written: 0.5 CPUs).
QString resourcesOf(double cpu, int gpu) {
    QString text = cpu == double(int(cpu))
                       ? ClusterSummary::tr("%n CPU(s)", nullptr, int(cpu))
                       : ClusterSummary::tr("%1 CPUs").arg(QLocale().toString(cpu));
    if (gpu > 0) {
        text += QStringLiteral(", ") + ClusterSummary::tr("%n GPU(s)", nullptr, gpu);
    }
    return text;
}

// "cpu-spot (4 CPUs): up to 8 workers", "gpu (16 CPUs, 2 GPUs): 1 to 2 workers".
QString nodeTypeOf(const ClusterNodeType& type) {
    const QString workers =
        type.minWorkers > 0
            ? ClusterSummary::tr("%1 to %2 workers").arg(type.minWorkers).arg(type.maxWorkers)
            : ClusterSummary::tr("up to %n worker(s)", nullptr, type.maxWorkers);
    return ClusterSummary::tr("%1 (%2): %3")
        .arg(type.name, resourcesOf(type.cpu, type.gpu), workers);
}

// The first few node names, and how many more.
QString nodeNames(const std::vector<ClusterNodeSpec>& nodes) {
    constexpr int kShown = 4;
    QStringList names;
    for (int i = 0; i < int(nodes.size()) && i < kShown; ++i) {
        names << nodes[size_t(i)].name() +
                     (nodes[size_t(i)].isHead ? ClusterSummary::tr(" (head)") : QString());
    }
    QString text = names.join(QStringLiteral(", "));
    if (int(nodes.size()) > kShown) {
        text += QLatin1Char(' ') +
                ClusterSummary::tr("and %n more", nullptr, int(nodes.size()) - kShown);
    }
    return text;
}

}  // namespace

QString clusterSummary(const ClusterSpec& spec) {
    switch (spec.provider) {
        case ClusterProvider::Local:
            return ClusterSummary::tr("%1 runs trials on this machine only.").arg(spec.clusterName);
        case ClusterProvider::Ssh:
            if (spec.nodes.empty()) {
                return ClusterSummary::tr("%1 lists no node to reach over SSH.")
                    .arg(spec.clusterName);
            }
            return ClusterSummary::tr("%1: %n node(s) over SSH as %2: %3.", nullptr,
                                      int(spec.nodes.size()))
                .arg(spec.clusterName, spec.sshUser, nodeNames(spec.nodes));
        case ClusterProvider::Slurm:
        case ClusterProvider::Command:
            break;
    }
    QStringList types;
    int sumOfTypes = 0;
    for (const ClusterNodeType& type : spec.nodeTypes) {
        types << nodeTypeOf(type);
        sumOfTypes += type.maxWorkers;
    }
    QString text =
        (spec.provider == ClusterProvider::Slurm
             ? ClusterSummary::tr("%1 asks Slurm for nodes as trials wait (%n node type(s)): %2.",
                                  nullptr, int(spec.nodeTypes.size()))
             : ClusterSummary::tr("%1 makes nodes with your commands as trials wait (provider "
                                  "command, %n node type(s)): %2.",
                                  nullptr, int(spec.nodeTypes.size())))
            .arg(spec.clusterName, types.join(QStringLiteral("; ")));
    if (spec.maxWorkers < sumOfTypes) {
        text += QLatin1Char(' ') +
                ClusterSummary::tr("At most %n worker(s) in all.", nullptr, spec.maxWorkers);
    }
    return text;
}

}  // namespace tunedeck::app
