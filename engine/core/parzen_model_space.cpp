// The Parzen estimators' model space (see core/parzen_estimator.h): each domain as an axis, its
// values into model space and draws back out as values it can take, and the weights observations
// enter the estimators with (Optuna's default_weights).
#include "core/parzen_estimator.h"

#include <QString>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace tunedeck::tpe {

namespace {

// A normal domain is modelled on mu -/+ this many sigmas (all but 6e-7 of its mass).
constexpr double kNormalSpan = 5;
// Optuna's default_weights keeps this many newest observations at full weight.
constexpr std::size_t kFlatWeights = 25;

// The nearest multiple of q, as the domain itself rounds (core/domain.cpp), so a proposed
// value is one random sampling could have given: 15 significant digits drop k * q's binary
// noise, and adding 0.0 turns -0 into 0.
double quantize(double value, double q) {
    const double snapped = std::round(value / q) * q;
    return QString::number(snapped, 'g', 15).toDouble() + 0.0;
}

// Multiples of q that qrandint can produce are k * q for k in [first, last].
double firstMultiple(const Domain& d) {
    return std::ceil(d.low / d.q);
}
double lastMultiple(const Domain& d) {
    return std::floor(d.high / d.q);
}

// Uniform kinds give [low, high), as random sampling does.
double belowHigh(double value, double low, double high) {
    value = std::clamp(value, low, high);
    return value >= high ? std::nextafter(high, low) : value;
}

}  // namespace

Axis axisOf(const Domain& d) {
    using Kind = Axis::Kind;
    Axis axis;
    auto set = [&axis](Kind kind, double low, double high, double step = 0) {
        axis.kind = kind;
        axis.low = low;
        axis.high = high;
        axis.step = step;
    };
    switch (d.kind) {
        case DomainKind::Uniform:
            set(Kind::Continuous, d.low, d.high);
            break;
        case DomainKind::QUniform:
            set(Kind::Discrete, d.low - 0.5 * d.q, d.high + 0.5 * d.q, d.q);
            break;
        case DomainKind::LogUniform:
            set(Kind::Continuous, std::log(d.low), std::log(d.high));
            break;
        case DomainKind::QLogUniform:
        case DomainKind::QLogRandInt: {
            const double low = d.low - 0.5 * d.q > 0 ? d.low - 0.5 * d.q : d.low;
            set(Kind::Continuous, std::log(low), std::log(d.high + 0.5 * d.q));
            break;
        }
        case DomainKind::RandInt:
            set(Kind::Discrete, d.low - 0.5, d.high - 0.5, 1);
            break;
        case DomainKind::QRandInt:
            set(Kind::Discrete, (firstMultiple(d) - 0.5) * d.q, (lastMultiple(d) + 0.5) * d.q, d.q);
            break;
        case DomainKind::LogRandInt:
            set(Kind::Continuous, std::log(d.low - 0.5), std::log(d.high - 0.5));
            break;
        case DomainKind::Normal:
        case DomainKind::QNormal: {
            const double half = d.kind == DomainKind::QNormal ? 0.5 * d.q : 0.0;
            set(d.kind == DomainKind::QNormal ? Kind::Discrete : Kind::Continuous,
                d.mu - kNormalSpan * d.sigma - half, d.mu + kNormalSpan * d.sigma + half, 2 * half);
            axis.customPrior = true;
            axis.priorMu = d.mu;
            axis.priorSigma = d.sigma;
            break;
        }
        case DomainKind::Choice:
        case DomainKind::Grid:
            axis.kind = Kind::Categorical;
            axis.categories = static_cast<int>(d.options.size());
            break;
    }
    return axis;
}

double toModel(const Domain& d, const Axis& axis, double value) {
    switch (d.kind) {
        case DomainKind::Uniform:
        case DomainKind::QUniform:
            return std::clamp(value, d.low, d.high);
        case DomainKind::LogUniform:
        case DomainKind::QLogUniform:
        case DomainKind::QLogRandInt:
            return std::log(std::clamp(value, d.low, d.high));
        case DomainKind::RandInt:
            return std::clamp(value, d.low, d.high - 1);
        case DomainKind::QRandInt:
            return std::clamp(value, firstMultiple(d) * d.q, lastMultiple(d) * d.q);
        case DomainKind::LogRandInt:
            return std::log(std::clamp(value, d.low, d.high - 1));
        case DomainKind::Normal:
        case DomainKind::QNormal:
            return std::clamp(value, axis.low, axis.high);
        case DomainKind::Choice:
        case DomainKind::Grid:
            return value;
    }
    return value;
}

// The domain value a draw from the estimator stands for: rounded and clipped the way Optuna's
// _transform_from_uniform does (numpy's round-half-even for integers), q kinds rounded as the
// domain rounds them.
double fromDraw(const Domain& d, double draw) {
    switch (d.kind) {
        case DomainKind::Uniform:
            return belowHigh(draw, d.low, d.high);
        case DomainKind::QUniform:
            return std::clamp(quantize(draw, d.q), d.low, d.high);
        case DomainKind::LogUniform:
            return belowHigh(std::exp(draw), d.low, d.high);
        case DomainKind::QLogUniform:
            return std::clamp(quantize(std::exp(draw), d.q), d.low, d.high);
        case DomainKind::RandInt:
            return std::clamp(std::nearbyint(draw), d.low, d.high - 1);
        case DomainKind::QRandInt:
            return std::clamp(std::nearbyint(draw / d.q), firstMultiple(d), lastMultiple(d)) * d.q;
        case DomainKind::LogRandInt:
            return std::clamp(std::nearbyint(std::exp(draw)), d.low, d.high - 1);
        case DomainKind::QLogRandInt:
            return std::clamp(std::nearbyint(std::exp(draw) / d.q), firstMultiple(d),
                              lastMultiple(d)) *
                   d.q;
        case DomainKind::Normal:
            return draw;
        case DomainKind::QNormal:
            return quantize(draw, d.q);
        case DomainKind::Choice:
        case DomainKind::Grid:
            return draw;
    }
    return draw;
}

void defaultWeights(std::size_t n, std::vector<double>& out) {
    out.assign(n, 1.0);
    if (n <= kFlatWeights) {
        return;
    }
    // numpy.linspace(1 / n, 1, n - 25): start + i * step, the last one exactly 1.
    const std::size_t ramp = n - kFlatWeights;
    const double start = 1.0 / static_cast<double>(n);
    const double step = ramp > 1 ? (1.0 - start) / static_cast<double>(ramp - 1) : 0.0;
    for (std::size_t i = 0; i < ramp; ++i) {
        out[i] = start + static_cast<double>(i) * step;
    }
    if (ramp > 1) {
        out[ramp - 1] = 1.0;
    }
}

}  // namespace tunedeck::tpe
