#include "core/checkpoint_policy.h"

#include <algorithm>
#include <cmath>

#include "core/search_space.h"

namespace tunedeck {

namespace {

std::optional<double> scoreOf(const CheckpointRecord& record, const QString& key) {
    QJsonValue value = record.result.value(key);
    if (value.isUndefined()) {
        value = valueAtPath(record.result, key);  // "eval.accuracy" in a nested result
    }
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        return std::nullopt;
    }
    return value.toDouble();
}

bool newer(const CheckpointRecord& a, const CheckpointRecord& b) {
    return a.iteration != b.iteration ? a.iteration > b.iteration : a.id > b.id;
}

}  // namespace

int reportWindowLimit(const ExperimentSpec& spec) {
    if (spec.checkpoint.frequency > 0 || spec.checkpoint.atEnd) {
        return 1;
    }
    const QString& scheduler = spec.scheduler.name;
    const bool onlyStops = scheduler.isEmpty() || scheduler == QLatin1String("fifo") ||
                           scheduler == QLatin1String("asha") ||
                           (scheduler == QLatin1String("median") &&
                            spec.scheduler.options.value(QStringLiteral("hard_stop")).toBool(true));
    return onlyStops ? kMaxReportWindow : 1;
}

bool shouldRequestCheckpoint(const CheckpointSpec& spec, std::int64_t iteration) {
    return spec.frequency > 0 && iteration > 0 && iteration % spec.frequency == 0;
}

std::vector<std::int64_t> checkpointsToDelete(const CheckpointSpec& spec,
                                              const std::vector<CheckpointRecord>& checkpoints,
                                              const std::set<std::int64_t>& pinned) {
    if (spec.keep <= 0 || checkpoints.empty()) {
        return {};
    }
    std::vector<const CheckpointRecord*> ranked;
    for (const auto& record : checkpoints) {
        ranked.push_back(&record);
    }
    // Best first. Without a score, the newest are the best; with one, a checkpoint without a
    // usable score ranks below every scored one, and equal scores prefer the newer checkpoint.
    const bool byScore = !spec.score.isEmpty();
    const bool higherIsBetter = spec.scoreMode == MetricMode::Max;
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](const CheckpointRecord* a, const CheckpointRecord* b) {
                         if (byScore) {
                             const auto sa = scoreOf(*a, spec.score);
                             const auto sb = scoreOf(*b, spec.score);
                             if (sa.has_value() != sb.has_value()) {
                                 return sa.has_value();
                             }
                             if (sa && *sa != *sb) {
                                 return higherIsBetter ? *sa > *sb : *sa < *sb;
                             }
                         }
                         return newer(*a, *b);
                     });

    std::set<std::int64_t> kept = pinned;
    for (std::size_t i = 0; i < ranked.size() && i < static_cast<std::size_t>(spec.keep); ++i) {
        kept.insert(ranked[i]->id);
    }
    const auto latest = std::max_element(
        checkpoints.begin(), checkpoints.end(),
        [](const CheckpointRecord& a, const CheckpointRecord& b) { return newer(b, a); });
    kept.insert(latest->id);

    std::vector<std::int64_t> deletable;
    for (const auto& record : checkpoints) {
        if (!kept.contains(record.id)) {
            deletable.push_back(record.id);
        }
    }
    return deletable;
}

}  // namespace tunedeck
