// Parzen estimators: fitting (weights, bandwidths, categorical rows), drawing from the mixture by
// the inverse CDF of truncated normals (core/truncated_normal.h), and log densities summed over
// components in log space. Each domain's model space and the observations' weights are in
// parzen_model_space.cpp.
#include "core/parzen_estimator.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <utility>

#include "core/truncated_normal.h"

namespace tunedeck::tpe {

namespace {

// Optuna's EPS: the smallest bandwidth when the magic clip is off.
constexpr double kEps = 1e-12;
// Optuna's SIGMA0_MAGNITUDE: the multivariate bandwidth factor of Scott's rule.
constexpr double kSigma0Magnitude = 0.2;
// A component whose log term is this far below the largest one adds less than 2^-53 of it
// (below double precision), so logPdf may skip it.
constexpr double kNegligibleLog = 37;

const double kLogSqrt2Pi = 0.5 * std::log(2 * std::numbers::pi);
constexpr double kInf = std::numeric_limits<double>::infinity();

// exp(x) for -708 <= x <= 0 in straight-line code the compiler can vectorise: x = k ln2 + r,
// |r| <= ln2 / 2, e^r by its Taylor series to r^12 (relative error < 2e-16), times 2^k through
// the exponent bits.
double expNonPositive(double x) {
    constexpr double kLog2e = 1.4426950408889634;
    constexpr double kLn2High = 6.93147180369123816490e-01;
    constexpr double kLn2Low = 1.90821492927058770002e-10;
    constexpr double kShifter = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to integers
    const double shifted = x * kLog2e + kShifter;
    const double k = shifted - kShifter;
    const double r = x - k * kLn2High - k * kLn2Low;
    double p = 1.0 / 479001600;  // 1 / 12!, then Horner down to 1 / 0!
    p = p * r + 1.0 / 39916800;
    p = p * r + 1.0 / 3628800;
    p = p * r + 1.0 / 362880;
    p = p * r + 1.0 / 40320;
    p = p * r + 1.0 / 5040;
    p = p * r + 1.0 / 720;
    p = p * r + 1.0 / 120;
    p = p * r + 1.0 / 24;
    p = p * r + 1.0 / 6;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    const std::int64_t exponent =
        std::bit_cast<std::int64_t>(shifted) - std::bit_cast<std::int64_t>(kShifter);
    return std::bit_cast<double>(std::bit_cast<std::int64_t>(p) +
                                 exponent * (std::int64_t{1} << 52));
}

// log(sum(exp(terms))); `terms` is overwritten. Terms more than 708 below the largest count as
// e^-708 of it, which changes no sum.
double logSumExp(std::vector<double>& terms) {
    double largest = -kInf;
    for (double term : terms) {
        largest = term > largest ? term : largest;
    }
    if (largest == -kInf) {
        return -kInf;
    }
    // Separate simple loops, so each is vectorised.
    for (double& term : terms) {
        const double shifted = term - largest;
        term = shifted > -708.0 ? shifted : -708.0;
    }
    for (double& term : terms) {
        term = expNonPositive(term);
    }
    double sum = 0;
    for (double term : terms) {
        sum += term;
    }
    return largest + std::log(sum);
}

}  // namespace

void ParzenEstimator::fit(std::span<const Axis> axes, std::span<const double> points, std::size_t n,
                          std::span<const double> weights, const EstimatorOptions& options,
                          std::span<const std::size_t> sorted) {
    axes_.assign(axes.begin(), axes.end());
    options_ = options;
    observations_ = n;
    // With nothing observed the prior is all there is, whatever consider_prior says (Optuna).
    hasPrior_ = options.considerPrior || n == 0;
    const std::size_t count = n + (hasPrior_ ? 1 : 0);

    weights_.resize(count);
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        weights_[i] = weights[i];
        total += weights[i];
    }
    if (hasPrior_) {
        weights_[n] = options.priorWeight;
        total += options.priorWeight;
    }
    cumulative_.resize(count);
    double running = 0;
    for (std::size_t k = 0; k < count; ++k) {
        weights_[k] /= total;
        running += weights_[k];
        cumulative_[k] = running;
    }

    // One continuous axis, the common case, needs only base_: one log per component, not three.
    oneContinuous_ = axes_.size() == 1 && axes_[0].kind == Axis::Kind::Continuous;
    models_.resize(axes_.size());
    logWeights_.resize(oneContinuous_ ? 0 : count);
    base_.resize(count);
    for (std::size_t k = 0; k < logWeights_.size(); ++k) {
        logWeights_[k] = std::log(weights_[k]);
        base_[k] = logWeights_[k];
    }
    for (std::size_t j = 0; j < axes_.size(); ++j) {
        if (axes_[j].kind == Axis::Kind::Categorical) {
            fitCategorical(j, points, n);
            continue;
        }
        fitNumeric(j, points, n, axes_.size() == 1 ? sorted : std::span<const std::size_t>());
        const AxisModel& model = models_[j];
        if (oneContinuous_) {
            for (std::size_t k = 0; k < count; ++k) {
                base_[k] = std::log(weights_[k]) - kLogSqrt2Pi - model.logMass[k];
            }
        } else if (axes_[j].kind == Axis::Kind::Continuous) {
            for (std::size_t k = 0; k < count; ++k) {
                base_[k] += model.density[k];
            }
        }
    }
    if (axes_.size() == 1 && axes_[0].kind != Axis::Kind::Categorical) {
        buildWindow();
    }
}

void ParzenEstimator::fitNumeric(std::size_t j, std::span<const double> points, std::size_t n,
                                 std::span<const std::size_t> sorted) {
    const Axis& axis = axes_[j];
    AxisModel& model = models_[j];
    const std::size_t d = axes_.size();
    const std::size_t count = weights_.size();
    const double low = axis.low;
    const double high = axis.high;
    const double range = high - low;
    const double priorMu = axis.customPrior ? axis.priorMu : 0.5 * (low + high);
    const double priorSigma = axis.customPrior ? axis.priorSigma : range;

    model.mu.resize(count);
    model.sigma.resize(count);
    for (std::size_t i = 0; i < n; ++i) {
        model.mu[i] = points[i * d + j];
    }
    if (hasPrior_) {
        model.mu[n] = priorMu;
    }

    // Components by centre: for the bandwidths, and for logPdf's window on a single axis.
    if (!options_.multivariate || d == 1) {
        order_.resize(count);
        if (sorted.size() == n) {
            // The caller's order, with the prior merged in (its index is the last, so it goes
            // after equal values).
            std::size_t p = 0;
            bool priorPlaced = !hasPrior_;
            for (std::size_t i : sorted) {
                if (!priorPlaced && priorMu < model.mu[i]) {
                    order_[p++] = {priorMu, n};
                    priorPlaced = true;
                }
                order_[p++] = {model.mu[i], i};
            }
            if (!priorPlaced) {
                order_[p] = {priorMu, n};
            }
        } else {
            for (std::size_t k = 0; k < count; ++k) {
                order_[k] = {model.mu[k], k};
            }
            std::sort(order_.begin(), order_.end());
        }
    }

    if (options_.multivariate) {
        const double sigma0 =
            kSigma0Magnitude * std::pow(static_cast<double>(std::max<std::size_t>(n, 1)),
                                        -1.0 / (static_cast<double>(d) + 4.0));
        std::fill(model.sigma.begin(), model.sigma.end(), sigma0 * range);
    } else {
        // Each bandwidth is the larger distance to its sorted neighbours, the bounds standing
        // in for the missing neighbour of the ends (the prior's centre is sorted in too).
        for (std::size_t p = 0; p < count; ++p) {
            const double here = order_[p].first;
            const double left = p == 0 ? low : order_[p - 1].first;
            const double right = p + 1 == count ? high : order_[p + 1].first;
            model.sigma[order_[p].second] = std::max(here - left, right - here);
        }
        if (!options_.considerEndpoints && count >= 2) {
            model.sigma[order_[0].second] = order_[1].first - order_[0].first;
            model.sigma[order_[count - 1].second] =
                order_[count - 1].first - order_[count - 2].first;
        }
    }

    const double maxSigma = range;
    const double minSigma = options_.considerMagicClip
                                ? range / std::min(100.0, 1.0 + static_cast<double>(count))
                                : kEps;
    for (double& sigma : model.sigma) {
        sigma = std::clamp(sigma, minSigma, maxSigma);
    }
    if (hasPrior_) {
        model.sigma[n] = priorSigma;
    }

    model.invSigma.resize(count);
    model.logMass.resize(count);
    model.density.resize(oneContinuous_ ? 0 : count);
    for (std::size_t k = 0; k < count; ++k) {
        const double inv = 1.0 / model.sigma[k];
        model.invSigma[k] = inv;
        const double a = (low - model.mu[k]) * inv;
        const double b = (high - model.mu[k]) * inv;
        model.logMass[k] = logGaussMass(a, b);
        if (!oneContinuous_) {
            // Optuna 3.1 leaves a continuous component's 1/sigma out (see the header); for a
            // discrete one this is only a bound on the cell's mass, which needs it.
            const double scale =
                axis.kind == Axis::Kind::Continuous ? 0 : -std::log(model.sigma[k]);
            model.density[k] = scale - kLogSqrt2Pi - model.logMass[k];
        }
    }
}

void ParzenEstimator::fitCategorical(std::size_t j, std::span<const double> points, std::size_t n) {
    const Axis& axis = axes_[j];
    AxisModel& model = models_[j];
    const std::size_t d = axes_.size();
    const std::size_t count = weights_.size();
    const double categories = axis.categories;
    // Every row starts at prior_weight / (n + 1) (prior_weight / n without the prior), the
    // observed option gets one more, and the row is normalised (Optuna's
    // _calculate_categorical_params).
    const double base =
        options_.priorWeight / static_cast<double>(hasPrior_ ? n + 1 : std::max<std::size_t>(n, 1));
    const double rowSum = categories * base + 1;
    model.logHit = std::log((base + 1) / rowSum);
    model.logMiss = std::log(base / rowSum);

    model.observed.resize(count);
    for (std::size_t i = 0; i < n; ++i) {
        model.observed[i] = static_cast<int>(points[i * d + j]);
    }
    if (hasPrior_) {
        model.observed[n] = -1;
    }

    // The mixture's probability of each option, for the one-axis shortcut of logPdf().
    const double hit = (base + 1) / rowSum;
    const double miss = base / rowSum;
    model.marginal.assign(static_cast<std::size_t>(axis.categories), 0.0);
    double observedWeight = 0;
    for (std::size_t i = 0; i < n; ++i) {
        observedWeight += weights_[i];
        const int option = model.observed[i];
        if (option >= 0 && option < axis.categories) {
            model.marginal[static_cast<std::size_t>(option)] += weights_[i] * (hit - miss);
        }
    }
    const double priorShare = hasPrior_ ? weights_[n] / categories : 0.0;
    for (double& p : model.marginal) {
        p = std::log(p + observedWeight * miss + priorShare);
    }
}

std::span<const double> ParzenEstimator::mus(std::size_t axis) const {
    return models_[axis].mu;
}

std::span<const double> ParzenEstimator::sigmas(std::size_t axis) const {
    return models_[axis].sigma;
}

double ParzenEstimator::categoricalWeight(std::size_t axis, std::size_t component,
                                          int category) const {
    const AxisModel& model = models_[axis];
    const int option = model.observed[component];
    if (option < 0) {
        return 1.0 / axes_[axis].categories;
    }
    return std::exp(option == category ? model.logHit : model.logMiss);
}

void ParzenEstimator::sample(Rng& rng, std::span<double> point) const {
    const double u = rng.uniform01() * cumulative_.back();
    const auto found = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
    const std::size_t component = std::min<std::size_t>(
        static_cast<std::size_t>(found - cumulative_.begin()), cumulative_.size() - 1);
    for (std::size_t j = 0; j < axes_.size(); ++j) {
        const Axis& axis = axes_[j];
        const AxisModel& model = models_[j];
        if (axis.kind != Axis::Kind::Categorical) {
            point[j] = sampleNumeric(axis, model, component, rng);
            continue;
        }
        const int observed = model.observed[component];
        if (observed < 0) {
            point[j] = static_cast<double>(rng.integer(0, axis.categories));
            continue;
        }
        // Walk the row's cumulative probabilities (Optuna's _sample_from_categorical_dist).
        const double hit = std::exp(model.logHit);
        const double miss = std::exp(model.logMiss);
        const double v = rng.uniform01();
        double cumulative = 0;
        int chosen = axis.categories - 1;
        for (int c = 0; c < axis.categories; ++c) {
            cumulative += c == observed ? hit : miss;
            if (cumulative >= v) {
                chosen = c;
                break;
            }
        }
        point[j] = chosen;
    }
}

double ParzenEstimator::sampleNumeric(const Axis& axis, const AxisModel& model,
                                      std::size_t component, Rng& rng) const {
    const double mu = model.mu[component];
    const double sigma = model.sigma[component];
    const double a = (axis.low - mu) / sigma;
    const double b = (axis.high - mu) / sigma;
    const double x = truncatedNormalQuantile(rng.uniform01(), a, b) * sigma + mu;
    return std::clamp(x, axis.low, axis.high);
}

double ParzenEstimator::logPdf(std::span<const double> point) const {
    if (axes_.size() == 1 && axes_[0].kind == Axis::Kind::Categorical) {
        const int category = static_cast<int>(point[0]);
        if (category < 0 || category >= axes_[0].categories) {
            return -kInf;
        }
        return models_[0].marginal[static_cast<std::size_t>(category)];
    }
    bool discrete = false;
    for (std::size_t j = 0; j < axes_.size(); ++j) {
        const Axis& axis = axes_[j];
        if (axis.kind == Axis::Kind::Categorical) {
            if (!(point[j] >= 0 && point[j] < axis.categories)) {
                return -kInf;
            }
        } else if (!(point[j] >= axis.low && point[j] <= axis.high)) {
            return -kInf;
        }
        discrete = discrete || axis.kind == Axis::Kind::Discrete;
    }

    if (axes_.size() == 1) {
        return logPdfOneAxis(point[0]);
    }
    scratch_.assign(base_.begin(), base_.end());
    for (std::size_t j = 0; j < axes_.size(); ++j) {
        addLogTerms(j, point[j]);
    }
    if (discrete) {
        // A discrete axis added upper bounds; its exact masses cost several erfc each, so they
        // are computed only for components that can matter: those whose bound comes within
        // kNegligibleLog of an exact term.
        const auto best = std::max_element(scratch_.begin(), scratch_.end());
        if (*best == -kInf) {
            return -kInf;
        }
        const double threshold =
            componentLogPdf(static_cast<std::size_t>(best - scratch_.begin()), point) -
            kNegligibleLog;
        for (std::size_t k = 0; k < scratch_.size(); ++k) {
            scratch_[k] = scratch_[k] < threshold ? -kInf : componentLogPdf(k, point);
        }
    }
    return logSumExp(scratch_);
}

// One numeric axis (independent TPE, the common case): only components near x can matter, so
// the sorted window of buildWindow() is searched instead of every component. Wide components and
// the two nearest give an exact term E; a narrow component farther than D from x has a term
// below its bound minus (D / sigma)^2 / 2, so with D as below every skipped term is under
// E - kNegligibleLog and the sum is exact to that margin.
double ParzenEstimator::logPdfOneAxis(double x) const {
    const Axis& axis = axes_[0];
    const bool continuous = axis.kind == Axis::Kind::Continuous;
    const double half = continuous ? 0.0 : 0.5 * axis.step;
    const double lower = std::max(x - half, axis.low);
    const double upper = std::min(x + half, axis.high);
    const Window& w = window_;
    auto entryTerm = [&](std::size_t q) {
        if (continuous) {
            const double z = (x - w.mu[q]) * w.inv[q];
            return w.bound[q] - 0.5 * z * z;
        }
        return w.logWeight[q] +
               logCellMass((lower - w.mu[q]) * w.inv[q], (upper - w.mu[q]) * w.inv[q]) -
               w.logMass[q];
    };
    scratch_.clear();
    double best = -kInf;
    for (std::size_t k : w.wide) {
        double term;
        if (continuous) {
            const double z = (x - models_[0].mu[k]) * models_[0].invSigma[k];
            term = base_[k] - 0.5 * z * z;
        } else {
            term = componentLogPdf(k, std::span<const double>(&x, 1));
        }
        scratch_.push_back(term);
        best = std::max(best, term);
    }
    const std::vector<double>& mu = w.mu;
    const auto nearest =
        static_cast<std::size_t>(std::lower_bound(mu.begin(), mu.end(), x) - mu.begin());
    for (std::size_t q = nearest > 0 ? nearest - 1 : 0; q < std::min(nearest + 1, mu.size()); ++q) {
        best = std::max(best, entryTerm(q));  // the two nearest entries
    }
    const double threshold = best - kNegligibleLog;
    if (w.maxBound > threshold) {
        const double reach = half + w.sigma * std::sqrt(2 * (w.maxBound - threshold));
        const auto first = static_cast<std::size_t>(
            std::lower_bound(mu.begin(), mu.end(), x - reach) - mu.begin());
        const auto last = static_cast<std::size_t>(
            std::upper_bound(mu.begin(), mu.end(), x + reach) - mu.begin());
        if (continuous) {
            // Terms under the threshold are dropped without a branch.
            const std::size_t start = scratch_.size();
            scratch_.resize(start + (last - first));
            double* terms = scratch_.data() + start;
            for (std::size_t q = first; q < last; ++q) {
                const double z = (x - mu[q]) * w.inv[q];
                terms[q - first] = w.bound[q] - 0.5 * z * z;
            }
        } else {
            for (std::size_t q = first; q < last; ++q) {
                // An exact mass costs several erfc: only where the bound says it can matter.
                const double z = std::abs(x - mu[q]) * w.inv[q];
                const double gap = std::max(0.0, z - half * w.inv[q]);
                if (w.bound[q] - 0.5 * gap * gap >= threshold) {
                    scratch_.push_back(entryTerm(q));
                }
            }
        }
    }
    return logSumExp(scratch_);
}

// For logPdfOneAxis: the components of the one numeric axis sorted by centre (from order_), with
// the most each term can be (continuous: exactly its weight and normalisation; discrete: that
// for a full cell), apart from "wide" ones (sigma above twice the median), which are few
// (the prior, isolated observations) and always evaluated. Components with the same centre and
// bandwidth (repeated integers) are one entry with their weights summed: the same mixture.
void ParzenEstimator::buildWindow() {
    const AxisModel& model = models_[0];
    const std::size_t count = weights_.size();
    const bool continuous = axes_[0].kind == Axis::Kind::Continuous;
    const double logStep = continuous ? 0.0 : std::log(axes_[0].step);
    widths_.assign(model.sigma.begin(), model.sigma.end());
    std::nth_element(widths_.begin(), widths_.begin() + static_cast<std::ptrdiff_t>(count / 2),
                     widths_.end());
    const double wide = 2 * widths_[count / 2];
    Window& w = window_;
    for (auto* values : {&w.mu, &w.inv, &w.bound}) {
        values->resize(count);
    }
    w.logWeight.resize(continuous ? 0 : count);
    w.logMass.resize(continuous ? 0 : count);
    w.wide.clear();
    w.sigma = 0;
    w.maxBound = -kInf;
    std::size_t entries = 0;
    for (std::size_t p = 0; p < order_.size();) {
        const std::size_t k = order_[p].second;
        const double sigma = model.sigma[k];
        if (sigma > wide) {
            w.wide.push_back(k);
            ++p;
            continue;
        }
        double weight = weights_[k];
        std::size_t next = p + 1;
        for (; next < order_.size() && order_[next].first == order_[p].first &&
               model.sigma[order_[next].second] == sigma;
             ++next) {
            weight += weights_[order_[next].second];
        }
        const bool merged = next > p + 1;
        double bound;
        if (continuous) {
            bound = merged ? std::log(weight) - kLogSqrt2Pi - model.logMass[k] : base_[k];
        } else {
            const double logWeight = merged ? std::log(weight) : logWeights_[k];
            bound = logWeight + logStep + model.density[k];
            w.logWeight[entries] = logWeight;
            w.logMass[entries] = model.logMass[k];
        }
        w.mu[entries] = order_[p].first;
        w.inv[entries] = model.invSigma[k];
        w.bound[entries] = bound;
        w.sigma = std::max(w.sigma, sigma);
        w.maxBound = std::max(w.maxBound, bound);
        ++entries;
        p = next;
    }
    for (auto* values : {&w.mu, &w.inv, &w.bound, &w.logWeight, &w.logMass}) {
        values->resize(std::min(values->size(), entries));
    }
}

void ParzenEstimator::addLogTerms(std::size_t j, double x) const {
    const Axis& axis = axes_[j];
    const AxisModel& model = models_[j];
    const std::size_t count = scratch_.size();
    double* terms = scratch_.data();
    if (axis.kind == Axis::Kind::Categorical) {
        const int category = static_cast<int>(x);
        const double logPrior = -std::log(static_cast<double>(axis.categories));
        for (std::size_t k = 0; k < count; ++k) {
            const int observed = model.observed[k];
            terms[k] += observed < 0           ? logPrior
                        : observed == category ? model.logHit
                                               : model.logMiss;
        }
        return;
    }
    const double* mu = model.mu.data();
    const double* inv = model.invSigma.data();
    const double* density = model.density.data();
    if (axis.kind == Axis::Kind::Continuous) {
        // density[k] is already in base_.
        for (std::size_t k = 0; k < count; ++k) {
            const double z = (x - mu[k]) * inv[k];
            terms[k] -= 0.5 * z * z;
        }
        return;
    }
    // Discrete: the cell lies inside the bounds, so its share of the component's mass there is
    // at most 1, and at most its width times the largest density in it.
    const double lower = std::max(x - 0.5 * axis.step, axis.low);
    const double upper = std::min(x + 0.5 * axis.step, axis.high);
    const double logWidth = std::log(upper - lower);
    for (std::size_t k = 0; k < count; ++k) {
        const double a = (lower - mu[k]) * inv[k];
        const double b = (upper - mu[k]) * inv[k];
        const double nearest = a > 0 ? a : (b < 0 ? -b : 0.0);
        terms[k] += std::min(0.0, logWidth + density[k] - 0.5 * nearest * nearest);
    }
}

double ParzenEstimator::componentLogPdf(std::size_t k, std::span<const double> point) const {
    double term = logWeights_[k];
    for (std::size_t j = 0; j < axes_.size(); ++j) {
        const Axis& axis = axes_[j];
        const AxisModel& model = models_[j];
        const double x = point[j];
        if (axis.kind == Axis::Kind::Categorical) {
            const int observed = model.observed[k];
            term += observed < 0 ? -std::log(static_cast<double>(axis.categories))
                    : observed == static_cast<int>(x) ? model.logHit
                                                      : model.logMiss;
        } else if (axis.kind == Axis::Kind::Continuous) {
            const double z = (x - model.mu[k]) * model.invSigma[k];
            term += model.density[k] - 0.5 * z * z;
        } else {
            // The cell [x - step/2, x + step/2], cut at the bounds (Optuna's log_pdf for q).
            const double lower = std::max(x - 0.5 * axis.step, axis.low);
            const double upper = std::min(x + 0.5 * axis.step, axis.high);
            term += logCellMass((lower - model.mu[k]) * model.invSigma[k],
                                (upper - model.mu[k]) * model.invSigma[k]) -
                    model.logMass[k];
        }
    }
    return term;
}

}  // namespace tunedeck::tpe
