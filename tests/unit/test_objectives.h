// The classic optimisation test functions (tests/common/classic_functions.h) as the searchers'
// tests call them, on configs, with their search spaces. Test-only; pure functions.
#pragma once

#include <QJsonObject>
#include <QString>

#include "classic_functions.h"
#include "space_builders.h"

namespace tunedeck::testing {

// Branin on its usual box, x1 in [-5, 10], x2 in [0, 15]; minimum 0.397887.
inline SearchSpace braninSpace() {
    return space({param("x1", uniform(-5, 10)), param("x2", uniform(0, 15))});
}

inline double branin(const QJsonObject& config) {
    return classic::branin(config.value(QStringLiteral("x1")).toDouble(),
                           config.value(QStringLiteral("x2")).toDouble());
}

// Hartmann-6 on [0, 1]^6 (parameters x0 .. x5); minimum -3.32237.
inline SearchSpace hartmannSpace() {
    SearchSpace s;
    for (int i = 0; i < 6; ++i) {
        s.parameters.push_back(param(QStringLiteral("x%1").arg(i), uniform(0, 1)));
    }
    return s;
}

inline double hartmann6(const QJsonObject& config) {
    double x[6];
    for (int j = 0; j < 6; ++j) {
        x[j] = config.value(QStringLiteral("x%1").arg(j)).toDouble();
    }
    return classic::hartmann6(x);
}

}  // namespace tunedeck::testing
