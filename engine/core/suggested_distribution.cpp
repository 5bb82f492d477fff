#include "core/suggested_distribution.h"

#include <QJsonDocument>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace tunedeck {

namespace {

QString number(double value) {
    return QString::number(value, 'g', 17);
}

QString scalarText(const QJsonValue& value) {
    if (value.isString()) {
        return QStringLiteral("'%1'").arg(value.toString());
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

bool isWhole(double value) {
    return std::isfinite(value) && std::floor(value) == value && std::fabs(value) <= 9.0e15;
}

// Optuna's float grid: low + k * step, computed from k so that no error piles up.
double onGrid(double low, double step, double k) {
    return low + k * step;
}

}  // namespace

Status SuggestedDistribution::fromJson(const QJsonObject& object, SuggestedDistribution* out) {
    SuggestedDistribution d;
    const QString type = object.value(QLatin1String("type")).toString();
    if (type == QLatin1String("categorical")) {
        d.kind = Kind::Categorical;
        const QJsonValue choices = object.value(QLatin1String("choices"));
        if (!choices.isArray() || choices.toArray().isEmpty()) {
            return Status::invalid(
                QStringLiteral("the `choices` must contain one or more elements"));
        }
        for (const QJsonValue& choice : choices.toArray()) {
            if (choice.isArray() || choice.isObject()) {
                return Status::invalid(
                    QStringLiteral("a choice must be None, a bool, a number or a string, not %1")
                        .arg(scalarText(choice).left(60)));
            }
        }
        d.choices = choices.toArray();
        *out = d;
        return Status::ok();
    }
    if (type != QLatin1String("float") && type != QLatin1String("int")) {
        return Status::invalid(
            QStringLiteral("the distribution type must be float, int or categorical, not '%1'")
                .arg(type.left(40)));
    }
    d.kind = type == QLatin1String("int") ? Kind::Int : Kind::Float;
    const QJsonValue low = object.value(QLatin1String("low"));
    const QJsonValue high = object.value(QLatin1String("high"));
    if (!low.isDouble() || !high.isDouble() || !std::isfinite(low.toDouble()) ||
        !std::isfinite(high.toDouble())) {
        return Status::invalid(QStringLiteral("`low` and `high` must be finite numbers"));
    }
    d.low = low.toDouble();
    d.high = high.toDouble();
    d.log = object.value(QLatin1String("log")).toBool(false);
    const QJsonValue step = object.value(QLatin1String("step"));
    if (!step.isNull() && !step.isUndefined()) {
        if (!step.isDouble() || !(step.toDouble() > 0) || !std::isfinite(step.toDouble())) {
            return Status::invalid(
                QStringLiteral("the `step` value must be non-zero positive value, but step=%1")
                    .arg(scalarText(step)));
        }
        d.step = step.toDouble();
    } else if (d.kind == Kind::Int) {
        d.step = 1;
    }
    if (d.kind == Kind::Int && (!isWhole(d.low) || !isWhole(d.high) || !isWhole(d.step))) {
        return Status::invalid(QStringLiteral("an int distribution takes whole numbers (low=%1, "
                                              "high=%2, step=%3)")
                                   .arg(number(d.low), number(d.high), number(d.step)));
    }
    if (d.low > d.high) {
        return Status::invalid(QStringLiteral("the `low` value must be smaller than or equal to "
                                              "the `high` value (low=%1, high=%2)")
                                   .arg(number(d.low), number(d.high)));
    }
    if (d.log && d.low <= 0) {
        return Status::invalid(QStringLiteral("the `low` value must be larger than 0 for a log "
                                              "distribution (low=%1, high=%2)")
                                   .arg(number(d.low), number(d.high)));
    }
    if (d.log && ((d.kind == Kind::Float && d.step > 0) || (d.kind == Kind::Int && d.step != 1))) {
        return Status::invalid(
            QStringLiteral("the parameter `step` is not supported when `log` is true"));
    }
    if (d.step > 0) {
        // As Optuna: high is brought down onto the grid of low + k * step.
        d.high = onGrid(d.low, d.step, std::floor((d.high - d.low) / d.step + 1e-9));
    }
    *out = d;
    return Status::ok();
}

QJsonObject SuggestedDistribution::toJson() const {
    if (kind == Kind::Categorical) {
        return {{QStringLiteral("type"), QStringLiteral("categorical")},
                {QStringLiteral("choices"), choices}};
    }
    QJsonObject object{{QStringLiteral("type"),
                        kind == Kind::Int ? QStringLiteral("int") : QStringLiteral("float")},
                       {QStringLiteral("low"), low},
                       {QStringLiteral("high"), high},
                       {QStringLiteral("log"), log}};
    object.insert(QStringLiteral("step"), step > 0 ? QJsonValue(step) : QJsonValue());
    return object;
}

QString SuggestedDistribution::describe() const {
    if (kind == Kind::Categorical) {
        QStringList shown;
        for (const QJsonValue& choice : choices) {
            shown << scalarText(choice);
        }
        return QStringLiteral("categorical [%1]").arg(shown.join(QStringLiteral(", ")));
    }
    QString text = QStringLiteral("%1 [%2, %3]")
                       .arg(kind == Kind::Int ? QStringLiteral("int") : QStringLiteral("float"),
                            number(low), number(high));
    if (log) {
        text += QStringLiteral(" log");
    }
    if (step > 0 && !(kind == Kind::Int && step == 1)) {
        text += QStringLiteral(" step %1").arg(number(step));
    }
    return text;
}

bool SuggestedDistribution::operator==(const SuggestedDistribution& other) const {
    return kind == other.kind && low == other.low && high == other.high && step == other.step &&
           log == other.log && choices == other.choices;
}

Status SuggestedDistribution::compatibleWith(const SuggestedDistribution& known) const {
    if (kind != known.kind) {
        return Status::invalid(
            QStringLiteral("Cannot set different distribution kind to the same parameter name "
                           "(it was %1, now %2)")
                .arg(known.describe(), describe()));
    }
    if (kind == Kind::Categorical && choices != known.choices) {
        return Status::invalid(
            QStringLiteral("CategoricalDistribution does not support dynamic value space (it was "
                           "%1, now %2)")
                .arg(known.describe(), describe()));
    }
    return Status::ok();
}

double SuggestedDistribution::lastValue() const {
    return high;  // fromJson already put high on the step's grid
}

QJsonValue SuggestedDistribution::sample(Rng& rng) const {
    switch (kind) {
        case Kind::Categorical:
            return choices.at(qsizetype(rng.integer(0, choices.size())));
        case Kind::Int:
            if (log) {
                const double draw = rng.uniform(std::log(low - 0.5), std::log(high + 0.5));
                return fromModel(draw);
            }
            return QJsonValue(qint64(low) +
                              qint64(step) * rng.integer(0, qint64((high - low) / step) + 1));
        case Kind::Float:
            if (step > 0) {
                const auto cells = std::int64_t(std::floor((high - low) / step + 1e-9)) + 1;
                return onGrid(low, step, double(rng.integer(0, cells)));
            }
            if (log) {
                return std::clamp(std::exp(rng.uniform(std::log(low), std::log(high))), low, high);
            }
            return low == high ? low : rng.uniform(low, high);
    }
    return {};
}

tpe::Axis SuggestedDistribution::axis() const {
    tpe::Axis axis;
    switch (kind) {
        case Kind::Categorical:
            axis.kind = tpe::Axis::Kind::Categorical;
            axis.categories = int(choices.size());
            break;
        case Kind::Int:
            if (log) {
                axis.kind = tpe::Axis::Kind::Continuous;
                axis.low = std::log(low - 0.5);
                axis.high = std::log(high + 0.5);
            } else {
                axis.kind = tpe::Axis::Kind::Discrete;
                axis.low = low - 0.5 * step;
                axis.high = high + 0.5 * step;
                axis.step = step;
            }
            break;
        case Kind::Float:
            if (step > 0) {
                axis.kind = tpe::Axis::Kind::Discrete;
                axis.low = low - 0.5 * step;
                axis.high = high + 0.5 * step;
                axis.step = step;
            } else {
                axis.kind = tpe::Axis::Kind::Continuous;
                axis.low = log ? std::log(low) : low;
                axis.high = log ? std::log(high) : high;
            }
            break;
    }
    return axis;
}

std::optional<double> SuggestedDistribution::toModel(const QJsonValue& value) const {
    if (kind == Kind::Categorical) {
        for (qsizetype at = 0; at < choices.size(); ++at) {
            if (choices.at(at) == value) {
                return double(at);
            }
        }
        return std::nullopt;
    }
    if (!value.isDouble() || !std::isfinite(value.toDouble())) {
        return std::nullopt;
    }
    const double clamped = std::clamp(value.toDouble(), low, lastValue());
    return log ? std::log(clamped) : clamped;
}

QJsonValue SuggestedDistribution::fromModel(double draw) const {
    switch (kind) {
        case Kind::Categorical:
            return choices.at(
                qsizetype(std::clamp(std::nearbyint(draw), 0.0, double(choices.size() - 1))));
        case Kind::Int: {
            const double value = log ? std::nearbyint(std::exp(draw))
                                     : low + std::nearbyint((draw - low) / step) * step;
            return QJsonValue(qint64(std::clamp(value, low, high)));
        }
        case Kind::Float:
            if (step > 0) {
                const double k = std::clamp(std::nearbyint((draw - low) / step), 0.0,
                                            std::floor((high - low) / step + 1e-9));
                return onGrid(low, step, k);
            }
            return std::clamp(log ? std::exp(draw) : draw, low, high);
    }
    return {};
}

Rng parameterStream(std::uint64_t seed, std::int64_t index, const QString& name) {
    std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a of the name's UTF-8
    for (const char byte : name.toUtf8()) {
        hash = (hash ^ std::uint8_t(byte)) * 1099511628211ULL;
    }
    // Far past the streams of whole configs (one per trial index).
    constexpr std::uint64_t kParameterStreams = std::uint64_t{1} << 52;
    return Rng::forStream(seed ^ hash, kParameterStreams + std::uint64_t(index));
}

}  // namespace tunedeck
