// How the analysis views place one hyperparameter (or the metric) on an axis: numbers on a
// linear scale, or a log scale when they are positive and span more than two decades; anything
// else (strings, booleans, lists) as evenly spaced categories in sorted order. Pure values built
// from the trials' flattened configs. Thread-safety: plain values, no shared state.
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonValue>
#include <QStringList>
#include <vector>

#include "models/experiment_data.h"

namespace tunedeck::app {

struct ParameterScale {
    enum class Kind { Linear, Log, Categorical };

    QString key;
    Kind kind = Kind::Linear;
    double min = 0;  // of the numbers seen (Linear, Log)
    double max = 0;
    QStringList categories;             // sorted (Categorical)
    QHash<QString, int> categoryIndex;  // text to its index in `categories`

    // A value's position on the axis, 0 (bottom) to 1 (top); NaN when the value is absent or
    // does not fit (text on a numeric scale, a non-positive number on a log scale).
    double fraction(const QJsonValue& value) const;
    double fraction(double value) const;
    // The value at a position of a numeric axis (for tick labels).
    double valueAt(double fraction) const;
    int categoryOf(const QJsonValue& value) const;  // -1 when not one of them
    // Round values to label a numeric axis with, about `wanted` of them: steps of 1, 2 or 5
    // times a power of ten, or powers of ten on a log scale.
    std::vector<double> ticks(int wanted) const;
    // Whether the values differ at all (a constant is no parameter to analyse).
    bool varies() const;

    // The scale of `values` (absent ones undefined); numeric when every present value is a
    // number, unless `choices` is not empty: a choice parameter's options (ExperimentData::
    // choices) are categories whatever they hold, every option one, seen or not yet.
    static ParameterScale of(const QString& key, const std::vector<QJsonValue>& values,
                             const QJsonArray& choices = {});
    static ParameterScale ofNumbers(const QString& key, const std::vector<double>& values);
};

// A config value as the views print it and as a category: numbers in their shortest form,
// strings as they are, lists and objects as compact JSON.
QString displayValue(const QJsonValue& value);

// One scale per config key of the trials, in configKeys() order; the spec's choices categorical.
std::vector<ParameterScale> parameterScales(const ExperimentData& data);

// The decades a log scale spans before the axis switches to it ("more than two decades").
inline constexpr double kLogSpan = 100.0;

}  // namespace tunedeck::app
