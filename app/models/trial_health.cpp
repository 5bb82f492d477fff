#include "models/trial_health.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tunedeck::app {

namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// Drops every other point but the last, so the kept ones still span the whole life.
void thin(std::vector<HealthPoint>& points) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i % 2 == 0 || i + 1 == points.size()) {
            points[kept++] = points[i];
        }
    }
    points.resize(kept);
}

// Adds a reading that may be unknown (NaN): the sum is unknown only while every reading is.
void addKnown(double& sum, double value) {
    if (!std::isnan(value)) {
        sum = std::isnan(sum) ? value : sum + value;
    }
}

}  // namespace

bool TrialHealthModel::apply(const events::Event& event) {
    const auto* sample = event.as<events::NodeUsageEvent>();
    if (sample == nullptr || sample->trials.empty()) {
        return false;
    }
    std::map<QString, NodePart> parts;  // this sample's entries added up per trial
    // Whether an entry named its rank: a gang's rank 0 is the trial's own process and has none.
    std::map<QString, bool> gang;
    for (const events::TrialUsage& usage : sample->trials) {
        auto [found, fresh] = parts.try_emplace(usage.trial);
        NodePart& part = found->second;
        if (fresh) {
            part.sum = HealthPoint{event.time, kUnknown, 0, kUnknown};
        }
        addKnown(part.sum.cpuPercent, usage.cpuPercent.value_or(kUnknown));
        part.sum.rssMb += usage.rssMb;
        addKnown(part.sum.gpuMemoryMb, usage.gpuMemoryMb.value_or(kUnknown));
        ++part.ranks;
        gang[usage.trial] = gang[usage.trial] || usage.rank.has_value();
    }
    for (auto& [id, part] : parts) {
        part.ranks = gang[id] ? part.ranks : 0;
        applyPart(id, sample->node, part);
    }
    ++version_;
    return true;
}

void TrialHealthModel::applyPart(const QString& id, const QString& node, const NodePart& part) {
    std::map<QString, NodePart>& nodes = parts_[id];
    const auto seen = nodes.find(node);
    if (seen != nodes.end() && part.sum.time <= seen->second.sum.time) {
        return;  // a sample already seen (read from the history, then replayed)
    }
    nodes[node] = part;
    HealthPoint point{part.sum.time, kUnknown, 0, kUnknown};
    int ranks = 0;
    QStringList names;
    for (const auto& [name, latest] : nodes) {
        addKnown(point.cpuPercent, latest.sum.cpuPercent);
        point.rssMb += latest.sum.rssMb;
        addKnown(point.gpuMemoryMb, latest.sum.gpuMemoryMb);
        ranks += latest.ranks;
        names << name;
    }
    TrialHealth& trial = trials_[id];
    trial.node = names.join(QStringLiteral(", "));
    trial.ranks = std::max(trial.ranks, ranks);
    if (!trial.points.empty() && point.time <= trial.points.back().time) {
        // Another node's sample of the same moment: the point of that time now counts it too.
        point.time = trial.points.back().time;
        trial.points.back() = point;
    } else {
        trial.points.push_back(point);
        ++trial.samples;
    }
    trial.peakRssMb = std::max(trial.peakRssMb, point.rssMb);
    if (!std::isnan(point.cpuPercent)) {
        trial.peakCpuPercent = std::max(trial.peakCpuPercent, point.cpuPercent);
    }
    if (!std::isnan(point.gpuMemoryMb)) {
        trial.gpuKnown = true;
        trial.peakGpuMemoryMb = std::max(trial.peakGpuMemoryMb, point.gpuMemoryMb);
    }
    if (trial.points.size() > kMaxPoints) {
        thin(trial.points);
    }
}

void TrialHealthModel::clear() {
    trials_.clear();
    parts_.clear();
    ++version_;
}

const TrialHealth* TrialHealthModel::find(const QString& trial) const {
    const auto found = trials_.find(trial);
    return found == trials_.end() ? nullptr : &found->second;
}

}  // namespace tunedeck::app
