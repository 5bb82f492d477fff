#include "models/trial_health.h"

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

}  // namespace

bool TrialHealthModel::apply(const events::Event& event) {
    const auto* sample = event.as<events::NodeUsageEvent>();
    if (sample == nullptr || sample->trials.empty()) {
        return false;
    }
    for (const events::TrialUsage& usage : sample->trials) {
        TrialHealth& trial = trials_[usage.trial];
        if (!trial.points.empty() && event.time <= trial.points.back().time) {
            continue;  // a sample already seen (read from the history, then replayed)
        }
        trial.node = sample->node;
        HealthPoint point;
        point.time = event.time;
        point.cpuPercent = usage.cpuPercent.value_or(kUnknown);
        point.rssMb = usage.rssMb;
        point.gpuMemoryMb = usage.gpuMemoryMb.value_or(kUnknown);
        trial.points.push_back(point);
        ++trial.samples;
        trial.peakRssMb = std::max(trial.peakRssMb, point.rssMb);
        if (usage.cpuPercent) {
            trial.peakCpuPercent = std::max(trial.peakCpuPercent, *usage.cpuPercent);
        }
        if (usage.gpuMemoryMb) {
            trial.gpuKnown = true;
            trial.peakGpuMemoryMb = std::max(trial.peakGpuMemoryMb, *usage.gpuMemoryMb);
        }
        if (trial.points.size() > kMaxPoints) {
            thin(trial.points);
        }
    }
    ++version_;
    return true;
}

void TrialHealthModel::clear() {
    trials_.clear();
    ++version_;
}

const TrialHealth* TrialHealthModel::find(const QString& trial) const {
    const auto found = trials_.find(trial);
    return found == trials_.end() ? nullptr : &found->second;
}

}  // namespace tunedeck::app
