#include "core/pbt_explore.h"

#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/pbt_options.h"
#include "core/pbt_values.h"

namespace tunedeck {

using namespace pbt_values;

namespace {

// Products such as 0.01 * 1.2 carry binary noise users would see in their configs; 15
// significant digits drop it (as the search space's quantisation does).
double tidy(double value) {
    return QString::number(value, 'g', 15).toDouble() + 0.0;
}

// A perturbed number brought back into the mutation's domain.
double intoDomain(double value, const Domain& d, bool integer) {
    const auto range = closedRange(d);
    if (range) {
        value = std::clamp(value, range->low, range->high);
    }
    if (d.q > 0 && d.kind != DomainKind::Normal) {
        value = std::round(value / d.q) * d.q;
        if (range && value > range->high) {
            value -= d.q;
        }
        if (range && value < range->low) {
            value += d.q;
        }
    }
    return integer ? std::trunc(value) : tidy(value);
}

QJsonValue numberValue(double value, bool integer) {
    return integer ? QJsonValue(static_cast<qint64>(value)) : QJsonValue(value);
}

}  // namespace

QJsonObject pbtExplore(const QJsonObject& config, const PbtExploreOptions& options, Rng& rng) {
    QJsonObject next = config;
    for (const PbtMutation& m : options.mutations) {
        const QJsonValue current = valueAtPath(config, m.path);
        if (current.isUndefined()) {
            continue;  // a conditional parameter this config does not have
        }
        const Domain& d = m.domain;
        QJsonValue value;
        const bool resample = rng.uniform01() < options.resampleProbability;
        if (isList(d)) {
            const auto n = static_cast<std::int64_t>(d.options.size());
            const auto at =
                std::find_if(d.options.begin(), d.options.end(),
                             [&](const DomainOption& o) { return sameValue(o.value, current); });
            if (resample || at == d.options.end()) {
                value = d.options[static_cast<std::size_t>(rng.integer(0, n))].value;
            } else {
                const std::int64_t shift = rng.integer(0, 2) == 0 ? -1 : 1;
                const std::int64_t index =
                    std::clamp<std::int64_t>((at - d.options.begin()) + shift, 0, n - 1);
                value = d.options[static_cast<std::size_t>(index)].value;
            }
        } else if (resample || !current.isDouble()) {
            value = d.sampleValue(rng);
            if (m.integer && value.isDouble()) {
                value = numberValue(std::trunc(value.toDouble()), true);
            }
        } else if (options.perturbationFactors.empty()) {
            continue;  // nothing to scale by (validation refuses an empty list)
        } else {
            // Ray's perturbation always moves a number (it does not bound it). Kept inside the
            // domain here, a factor that the bound undoes (0.8 at the low end) gives way to the
            // next one: a perturbation that lands where it started explores nothing.
            const auto& factors = options.perturbationFactors;
            const auto count = static_cast<std::int64_t>(factors.size());
            const std::int64_t first = rng.integer(0, count);
            for (std::int64_t i = 0; i < count; ++i) {
                const double factor = factors[static_cast<std::size_t>((first + i) % count)];
                value =
                    numberValue(intoDomain(current.toDouble() * factor, d, m.integer), m.integer);
                if (value.toDouble() != current.toDouble()) {
                    break;
                }
            }
        }
        next = withValueAtPath(next, m.path, value);
    }
    for (const PbtBound& b : options.customExplore) {
        const QJsonValue current = valueAtPath(next, b.path);
        if (!current.isDouble()) {
            continue;
        }
        const double low = b.integer ? std::ceil(b.low) : b.low;
        const double high = b.integer ? std::floor(b.high) : b.high;
        const double clamped = std::clamp(current.toDouble(), low, std::max(low, high));
        if (clamped != current.toDouble()) {
            next = withValueAtPath(next, b.path, numberValue(clamped, b.integer));
        }
    }
    return next;
}

QJsonObject PbtMutationExplorer::explore(const QString& trialId, const QString& sourceId,
                                         const QJsonObject& sourceConfig, Rng& rng) {
    (void)trialId;
    (void)sourceId;
    return pbtExplore(sourceConfig, options_, rng);
}

}  // namespace tunedeck
