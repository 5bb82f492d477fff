#include "core/best_trial.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace tunedeck {

namespace {

struct ScopeName {
    ScoreScope scope;
    const char* name;
};

constexpr std::array<ScopeName, 5> kScopeNames{{{ScoreScope::Last, "last"},
                                                {ScoreScope::All, "all"},
                                                {ScoreScope::Avg, "avg"},
                                                {ScoreScope::Last5Avg, "last-5-avg"},
                                                {ScoreScope::Last10Avg, "last-10-avg"}}};

double mean(std::span<const double> values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

}  // namespace

QString scoreScopeName(ScoreScope scope) {
    for (const ScopeName& s : kScopeNames) {
        if (s.scope == scope) {
            return QString::fromLatin1(s.name);
        }
    }
    return {};
}

std::optional<ScoreScope> scoreScopeFromName(const QString& name) {
    for (const ScopeName& s : kScopeNames) {
        if (name == QLatin1String(s.name)) {
            return s.scope;
        }
    }
    return std::nullopt;
}

QStringList scoreScopeNames() {
    QStringList names;
    for (const ScopeName& s : kScopeNames) {
        names << QString::fromLatin1(s.name);
    }
    return names;
}

bool betterScore(double a, double b, MetricMode mode) {
    return mode == MetricMode::Max ? a > b : a < b;
}

std::optional<double> trialScore(std::span<const double> values, MetricMode mode,
                                 ScoreScope scope) {
    if (values.empty()) {
        return std::nullopt;
    }
    switch (scope) {
        case ScoreScope::Last:
            return values.back();
        case ScoreScope::All:
            return mode == MetricMode::Max ? *std::max_element(values.begin(), values.end())
                                           : *std::min_element(values.begin(), values.end());
        case ScoreScope::Avg:
            return mean(values);
        case ScoreScope::Last5Avg:
            return mean(values.last(std::min<std::size_t>(5, values.size())));
        case ScoreScope::Last10Avg:
            return mean(values.last(std::min<std::size_t>(10, values.size())));
    }
    return std::nullopt;
}

void rankScores(std::vector<TrialScore>* scores, MetricMode mode) {
    std::sort(scores->begin(), scores->end(), [mode](const TrialScore& a, const TrialScore& b) {
        if (a.value != b.value) {
            return betterScore(a.value, b.value, mode);
        }
        return a.trialId < b.trialId;
    });
}

std::size_t pointsKeptBefore(std::span<const double> iterations, double iteration) {
    std::size_t kept = iterations.size();
    while (kept > 0 && iterations[kept - 1] >= iteration) {
        --kept;
    }
    return kept;
}

}  // namespace tunedeck
