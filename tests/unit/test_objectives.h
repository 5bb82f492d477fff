// The classic optimisation test functions the searchers' tests run on, with their search spaces
// (the search benchmark has its own copies in tests/bench/search/objectives.cpp, which Optuna's
// side evaluates too). Test-only; pure functions.
#pragma once

#include <QJsonObject>
#include <QString>
#include <cmath>
#include <numbers>

#include "space_builders.h"

namespace tunedeck::testing {

// Branin on its usual box, x1 in [-5, 10], x2 in [0, 15]; minimum 0.397887.
inline SearchSpace braninSpace() {
    return space({param("x1", uniform(-5, 10)), param("x2", uniform(0, 15))});
}

inline double branin(const QJsonObject& config) {
    const double x1 = config.value(QStringLiteral("x1")).toDouble();
    const double x2 = config.value(QStringLiteral("x2")).toDouble();
    const double pi = std::numbers::pi;
    const double term = x2 - 5.1 / (4 * pi * pi) * x1 * x1 + 5 / pi * x1 - 6;
    return term * term + 10 * (1 - 1 / (8 * pi)) * std::cos(x1) + 10;
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
    static const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
    static const double a[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                   {0.05, 10, 17, 0.1, 8, 14},
                                   {3, 3.5, 1.7, 10, 17, 8},
                                   {17, 8, 0.05, 10, 0.1, 14}};
    static const double p[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                   {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                   {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                   {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
    double total = 0;
    for (int i = 0; i < 4; ++i) {
        double inner = 0;
        for (int j = 0; j < 6; ++j) {
            const double x = config.value(QStringLiteral("x%1").arg(j)).toDouble();
            inner += a[i][j] * (x - p[i][j]) * (x - p[i][j]);
        }
        total -= alpha[i] * std::exp(-inner);
    }
    return total;
}

}  // namespace tunedeck::testing
