// Classic optimisation test functions, one definition for the searchers' unit tests and the
// search benchmark (which Optuna's side evaluates too). Pure, header-only.
#pragma once

#include <cmath>
#include <numbers>

namespace tunedeck::testing::classic {

// Branin on x1 in [-5, 10], x2 in [0, 15]; minimum 0.397887 at three points.
inline double branin(double x1, double x2) {
    constexpr double pi = std::numbers::pi;
    const double a = x2 - 5.1 / (4 * pi * pi) * x1 * x1 + 5 / pi * x1 - 6;
    return a * a + 10 * (1 - 1 / (8 * pi)) * std::cos(x1) + 10;
}

// Hartmann-6 on [0, 1]^6; minimum -3.32237.
inline double hartmann6(const double x[6]) {
    static constexpr double alpha[4] = {1.0, 1.2, 3.0, 3.2};
    static constexpr double a[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                       {0.05, 10, 17, 0.1, 8, 14},
                                       {3, 3.5, 1.7, 10, 17, 8},
                                       {17, 8, 0.05, 10, 0.1, 14}};
    static constexpr double p[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                                       {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                                       {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                                       {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
    double total = 0;
    for (int i = 0; i < 4; ++i) {
        double inner = 0;
        for (int j = 0; j < 6; ++j) {
            inner += a[i][j] * (x[j] - p[i][j]) * (x[j] - p[i][j]);
        }
        total -= alpha[i] * std::exp(-inner);
    }
    return total;
}

}  // namespace tunedeck::testing::classic
