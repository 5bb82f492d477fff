// Single domains of the search space: names, checks, drawing one value, and enumerating the
// values of finite domains (for grid search).
#include <QString>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/search_space.h"

namespace tunedeck {

namespace {

struct KindName {
    DomainKind kind;
    const char* name;
};

constexpr KindName kKindNames[] = {
    {DomainKind::Uniform, "uniform"},       {DomainKind::QUniform, "quniform"},
    {DomainKind::LogUniform, "loguniform"}, {DomainKind::QLogUniform, "qloguniform"},
    {DomainKind::RandInt, "randint"},       {DomainKind::QRandInt, "qrandint"},
    {DomainKind::LogRandInt, "lograndint"}, {DomainKind::QLogRandInt, "qlograndint"},
    {DomainKind::Normal, "normal"},         {DomainKind::QNormal, "qnormal"},
    {DomainKind::Choice, "choice"},         {DomainKind::Grid, "grid"},
};

// Integer bounds beyond 2^53 cannot be held exactly by the double fields of Domain.
constexpr double kLargestExactInteger = 9007199254740992.0;

QString num(double value) {
    return QString::number(value, 'g', 12);
}

bool isQuantized(DomainKind kind) {
    return kind == DomainKind::QUniform || kind == DomainKind::QLogUniform ||
           kind == DomainKind::QRandInt || kind == DomainKind::QLogRandInt ||
           kind == DomainKind::QNormal;
}

bool isLog(DomainKind kind) {
    return kind == DomainKind::LogUniform || kind == DomainKind::QLogUniform ||
           kind == DomainKind::LogRandInt || kind == DomainKind::QLogRandInt;
}

bool isBounded(DomainKind kind) {
    return isNumericDomain(kind) && kind != DomainKind::Normal && kind != DomainKind::QNormal;
}

bool isWhole(double value) {
    return std::isfinite(value) && std::floor(value) == value;
}

// The nearest multiple of q. k * q carries binary noise (3 * 0.1 = 0.30000000000000004) that
// users would see in their configs; 15 significant digits drop it. Adding 0.0 turns -0 into 0.
double quantize(double value, double q) {
    const double snapped = std::round(value / q) * q;
    return QString::number(snapped, 'g', 15).toDouble() + 0.0;
}

// Whether value / q is a whole number, up to the binary noise of decimal fractions
// (0.5 / 0.1 = 5.000000000000001), as Ray's math.isclose check.
bool isMultipleOf(double value, double q) {
    const double ratio = value / q;
    return std::abs(ratio - std::round(ratio)) <= 1e-9 * std::max(1.0, std::abs(ratio));
}

// The largest power of ten that both bounds are multiples of, at most the range's width: the
// step to suggest when q is wider than the range.
double fittingStep(double low, double high) {
    double step = std::pow(10.0, std::floor(std::log10(std::max(high - low, 1e-12))));
    for (int tries = 0; tries < 12 && !(isMultipleOf(low, step) && isMultipleOf(high, step));
         ++tries) {
        step /= 10.0;
    }
    return step;
}

// Multiples of q that qrandint can produce: k * q for k in [first, last].
std::int64_t firstMultiple(const Domain& d) {
    return static_cast<std::int64_t>(std::ceil(d.low / d.q));
}
std::int64_t lastMultiple(const Domain& d) {
    return static_cast<std::int64_t>(std::floor(d.high / d.q));
}

// The multiple of q nearest to `value`, kept among those in [low, high] (qrandint, qlograndint:
// the upper bound is included, as Ray's quantized integers).
std::int64_t nearestMultipleInRange(const Domain& d, double value) {
    const std::int64_t k = std::clamp(static_cast<std::int64_t>(std::llround(value / d.q)),
                                      firstMultiple(d), lastMultiple(d));
    return k * static_cast<std::int64_t>(d.q);
}

// Integer domains give JSON integers (qint64), so 3 reaches the trial as 3, never 3.0.
QJsonValue integer(std::int64_t value) {
    return QJsonValue(static_cast<qint64>(value));
}

double logUniform(Rng& rng, double low, double high) {
    return std::exp(rng.uniform(std::log(low), std::log(high)));
}

}  // namespace

QString domainKindName(DomainKind kind) {
    for (const auto& entry : kKindNames) {
        if (entry.kind == kind) {
            return QString::fromLatin1(entry.name);
        }
    }
    return QStringLiteral("unknown");
}

std::optional<DomainKind> domainKindFromName(const QString& name) {
    for (const auto& entry : kKindNames) {
        if (name == QLatin1String(entry.name)) {
            return entry.kind;
        }
    }
    return std::nullopt;
}

bool isNumericDomain(DomainKind kind) {
    return kind != DomainKind::Choice && kind != DomainKind::Grid;
}

bool isIntegerDomain(DomainKind kind) {
    return kind == DomainKind::RandInt || kind == DomainKind::QRandInt ||
           kind == DomainKind::LogRandInt || kind == DomainKind::QLogRandInt;
}

Status Domain::validate() const {
    const QString name = domainKindName(kind);
    if (!isNumericDomain(kind)) {
        if (options.empty()) {
            return Status::invalid(name + QStringLiteral(": needs at least one option"));
        }
        if (kind == DomainKind::Grid) {
            for (std::size_t i = 0; i < options.size(); ++i) {
                if (options[i].group) {
                    return Status::invalid(
                        QStringLiteral("grid: option %1 contains search domains; only choice "
                                       "options may (a grid point must be a plain value)")
                            .arg(i + 1));
                }
            }
        }
        return Status::ok();
    }

    if (isBounded(kind)) {
        if (!std::isfinite(low) || !std::isfinite(high)) {
            return Status::invalid(name + QStringLiteral(": low and high must be finite numbers"));
        }
        if (isIntegerDomain(kind)) {
            for (const auto& [label, value] : {std::pair{"low", low}, std::pair{"high", high}}) {
                if (!isWhole(value)) {
                    return Status::invalid(QStringLiteral("%1: %2 (%3) must be a whole number")
                                               .arg(name, QLatin1String(label), num(value)));
                }
                if (std::abs(value) > kLargestExactInteger) {
                    return Status::invalid(QStringLiteral("%1: %2 (%3) is too large")
                                               .arg(name, QLatin1String(label), num(value)));
                }
            }
        }
        if (low >= high) {
            return Status::invalid(QStringLiteral("%1: low (%2) must be below high (%3)")
                                       .arg(name, num(low), num(high)));
        }
        if (isLog(kind) && low <= 0) {
            return Status::invalid(
                QStringLiteral("%1: low (%2) must be above 0, since the range is sampled in log "
                               "space")
                    .arg(name, num(low)));
        }
    } else {
        if (!std::isfinite(mu) || !std::isfinite(sigma)) {
            return Status::invalid(name + QStringLiteral(": mu and sigma must be finite numbers"));
        }
        if (sigma <= 0) {
            return Status::invalid(
                QStringLiteral("%1: sigma (%2) must be above 0").arg(name, num(sigma)));
        }
    }

    if (isQuantized(kind)) {
        if (!std::isfinite(q) || q <= 0) {
            return Status::invalid(QStringLiteral("%1: q (%2) must be above 0").arg(name, num(q)));
        }
        if (kind == DomainKind::QUniform) {
            // Ray's Float.quantized refuses such bounds: rounding a sample near them to a
            // multiple of q would leave the range, and clamping back gives a value that is no
            // multiple of q.
            const double firstInside = quantize(std::ceil(low / q) * q, q);
            const double lastInside = quantize(std::floor(high / q) * q, q);
            if (firstInside > lastInside) {
                // Rounding the bounds inward would swap them: the advice is a smaller q.
                return Status::invalid(
                    QStringLiteral("quniform: no multiple of q (%1) lies between low (%2) and "
                                   "high (%3); write a smaller q, e.g. [%2, %3, %4] (NNI clips "
                                   "every such value to %2 or %3: for that, write choice [%2, "
                                   "%3])")
                        .arg(num(q), num(low), num(high), num(fittingStep(low, high))));
            }
            for (const auto& [label, value] : {std::pair{"low", low}, std::pair{"high", high}}) {
                if (!isMultipleOf(value, q)) {
                    return Status::invalid(
                        QStringLiteral("quniform: %1 (%2) is not a multiple of q (%3); write "
                                       "bounds that are, e.g. [%4, %5, %3]")
                            .arg(QLatin1String(label), num(value), num(q),
                                 num(quantize(std::ceil(low / q) * q, q)),
                                 num(quantize(std::floor(high / q) * q, q))));
                }
            }
        }
        if (kind == DomainKind::QRandInt || kind == DomainKind::QLogRandInt) {
            if (!isWhole(q)) {
                return Status::invalid(
                    QStringLiteral("%1: q (%2) must be a whole number").arg(name, num(q)));
            }
            if (firstMultiple(*this) > lastMultiple(*this)) {
                return Status::invalid(
                    QStringLiteral("%1: no multiple of q (%2) lies between low (%3) and "
                                   "high (%4)")
                        .arg(name, num(q), num(low), num(high)));
            }
        }
    }
    return Status::ok();
}

QJsonValue Domain::sampleValue(Rng& rng) const {
    // An unchecked domain (q = 0, log of 0) would divide by zero or cast infinity to an
    // integer; it yields null instead.
    if (!validate().isOk()) {
        return QJsonValue();
    }
    switch (kind) {
        case DomainKind::Uniform:
            return rng.uniform(low, high);
        case DomainKind::QUniform:
            return std::clamp(quantize(rng.uniform(low, high), q), low, high);
        case DomainKind::LogUniform: {
            // exp(log(x)) may land a hair outside the range; the interval is [low, high).
            const double value = logUniform(rng, low, high);
            return value >= high ? std::nextafter(high, low) : std::max(value, low);
        }
        case DomainKind::QLogUniform:
            return std::clamp(quantize(logUniform(rng, low, high), q), low, high);
        case DomainKind::RandInt:
            return integer(
                rng.integer(static_cast<std::int64_t>(low), static_cast<std::int64_t>(high)));
        case DomainKind::QRandInt: {
            const std::int64_t k = rng.integer(firstMultiple(*this), lastMultiple(*this) + 1);
            return integer(k * static_cast<std::int64_t>(q));
        }
        case DomainKind::LogRandInt: {
            const auto first = static_cast<std::int64_t>(low);
            const auto last = static_cast<std::int64_t>(high) - 1;
            const auto value = static_cast<std::int64_t>(std::floor(logUniform(rng, low, high)));
            return integer(std::clamp(value, first, last));
        }
        case DomainKind::QLogRandInt:
            return integer(nearestMultipleInRange(*this, logUniform(rng, low, high)));
        case DomainKind::Normal:
            return rng.normal(mu, sigma);
        case DomainKind::QNormal:
            return quantize(rng.normal(mu, sigma), q);
        case DomainKind::Choice:
        case DomainKind::Grid:
            return options[static_cast<std::size_t>(
                               rng.integer(0, static_cast<std::int64_t>(options.size())))]
                .value;
    }
    return QJsonValue();
}

namespace {

// The ends of a numeric domain in the coordinate that is uniform for it (log for log kinds).
std::pair<double, double> unitRange(const Domain& d) {
    switch (d.kind) {
        case DomainKind::Normal:
        case DomainKind::QNormal:
            return {d.mu - 3 * d.sigma, d.mu + 3 * d.sigma};
        case DomainKind::LogUniform:
        case DomainKind::QLogUniform:
        case DomainKind::LogRandInt:
        case DomainKind::QLogRandInt:
            return {std::log(d.low), std::log(d.high)};
        default:
            return {d.low, d.high};
    }
}

}  // namespace

QJsonValue Domain::fromUnit(double unit) const {
    if (!isNumericDomain(kind) || !validate().isOk()) {
        return QJsonValue();
    }
    const auto [from, to] = unitRange(*this);
    double value = from + std::clamp(unit, 0.0, 1.0) * (to - from);
    if (isLog(kind)) {
        value = std::exp(value);
    }
    switch (kind) {
        case DomainKind::Uniform:
        case DomainKind::Normal:
            return value;
        case DomainKind::LogUniform:
            return std::clamp(value, low, high);
        case DomainKind::QUniform:
        case DomainKind::QLogUniform:
            return std::clamp(quantize(value, q), low, high);
        case DomainKind::QNormal:
            return quantize(value, q);
        case DomainKind::RandInt:
        case DomainKind::LogRandInt:
            // [low, high): the top of the range belongs to the last integer.
            return integer(std::clamp(static_cast<std::int64_t>(std::floor(value)),
                                      static_cast<std::int64_t>(low),
                                      static_cast<std::int64_t>(high) - 1));
        case DomainKind::QRandInt:
        case DomainKind::QLogRandInt:
            return integer(nearestMultipleInRange(*this, value));
        default:
            return QJsonValue();
    }
}

std::optional<double> Domain::toUnit(const QJsonValue& value) const {
    if (!isNumericDomain(kind) || !value.isDouble() || !std::isfinite(value.toDouble())) {
        return std::nullopt;
    }
    double x = value.toDouble();
    if (kind == DomainKind::RandInt || kind == DomainKind::LogRandInt) {
        x += 0.5;  // the middle of the integer's cell, so fromUnit(toUnit(v)) == v
    }
    if (isLog(kind)) {
        if (x <= 0) {
            return std::nullopt;
        }
        x = std::log(x);
    }
    const auto [from, to] = unitRange(*this);
    if (to <= from) {
        return 0.5;
    }
    return std::clamp((x - from) / (to - from), 0.0, 1.0);
}

std::optional<QJsonArray> Domain::finiteValues(std::int64_t maxCount) const {
    if (!validate().isOk()) {
        return std::nullopt;
    }
    QJsonArray values;
    switch (kind) {
        case DomainKind::Choice:
        case DomainKind::Grid:
            if (static_cast<std::int64_t>(options.size()) > maxCount) {
                return std::nullopt;
            }
            for (const auto& option : options) {
                if (option.group) {
                    return std::nullopt;
                }
                values.append(option.value);
            }
            return values;
        case DomainKind::RandInt:
        case DomainKind::LogRandInt: {
            const auto first = static_cast<std::int64_t>(low);
            const auto end = static_cast<std::int64_t>(high);
            if (end - first > maxCount) {
                return std::nullopt;
            }
            for (std::int64_t v = first; v < end; ++v) {
                values.append(integer(v));
            }
            return values;
        }
        case DomainKind::QRandInt:
        case DomainKind::QLogRandInt: {
            const std::int64_t first = firstMultiple(*this);
            const std::int64_t last = lastMultiple(*this);
            if (last - first + 1 > maxCount) {
                return std::nullopt;
            }
            for (std::int64_t k = first; k <= last; ++k) {
                values.append(integer(k * static_cast<std::int64_t>(q)));
            }
            return values;
        }
        case DomainKind::QUniform:
        case DomainKind::QLogUniform: {
            // Exactly the values sampling can give: each multiple of q reachable by rounding a
            // point of [low, high], clamped into the range.
            const double first = std::round(low / q);
            const double last = std::round(high / q);
            if (last - first + 1 > static_cast<double>(maxCount)) {
                return std::nullopt;
            }
            double previous = std::nan("");
            for (double k = first; k <= last; k += 1) {
                const double value = std::clamp(quantize(k * q, q), low, high);
                if (value != previous) {
                    values.append(value);
                }
                previous = value;
            }
            return values;
        }
        case DomainKind::Uniform:
        case DomainKind::LogUniform:
        case DomainKind::Normal:
        case DomainKind::QNormal:
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace tunedeck
