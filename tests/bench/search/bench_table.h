// Prints the search benchmark's table from the figures both sides wrote (the same JSON shape:
// see quality.h, early_stopping.h, overhead.h, pbt_toy.h; optuna_side.py writes Optuna's rows).
// A section or a row that is missing prints as such; nothing is asserted. Pure formatting.
#pragma once

#include <QJsonObject>
#include <QString>
#include <vector>

namespace tunedeck::bench {

// numpy.percentile with linear interpolation; NaN for no values.
double quantile(std::vector<double> values, double q);

// The whole table: `tunedeck` and `optuna` are each side's figures (either may be empty).
QString formatTable(const QJsonObject& tunedeck, const QJsonObject& optuna);

}  // namespace tunedeck::bench
