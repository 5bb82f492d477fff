// The normal distribution's tails in double precision: Optuna 3.1's _truncnorm, with the
// normal quantile found by Newton's method from Acklam's approximation.
#include "core/truncated_normal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace tunedeck::tpe {

namespace {

const double kLogSqrt2Pi = 0.5 * std::log(2 * std::numbers::pi);
constexpr double kInf = std::numeric_limits<double>::infinity();
// Past this many sigmas from both bounds the truncation cuts under 1e-19 of the mass, so the
// log mass is 0 to double precision and needs no erfc.
constexpr double kWholeMassSigmas = 9;

// log(e^p - e^q) for p >= q.
double logDiff(double logP, double logQ) {
    return logP + std::log1p(-std::exp(logQ - logP));
}

double logAddExp(double x, double y) {
    if (x == -kInf) {
        return y;
    }
    if (y == -kInf) {
        return x;
    }
    const double larger = std::max(x, y);
    return larger + std::log1p(std::exp(-std::abs(x - y)));
}

// Acklam's rational approximation of the normal quantile (relative error < 1.2e-9), the start
// for the Newton steps below.
double approximateNdtri(double p) {
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};
    constexpr double pLow = 0.02425;
    if (p < pLow) {
        const double q = std::sqrt(-2 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    const double q = p - 0.5;
    const double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

// The x <= 0 with log(ndtr(x)) = logP, for logP <= log(1/2).
double ndtriOfLogLower(double logP) {
    double x;
    if (logP > -700) {
        x = approximateNdtri(std::exp(logP));
    } else {
        // ndtr(x) ~ pdf(x) / -x far in the left tail.
        const double t = -2 * logP;
        x = -std::sqrt(t - std::log(t) - std::log(2 * std::numbers::pi));
    }
    // Newton on log(ndtr), whose slope is pdf / ndtr; two or three steps reach full precision.
    for (int i = 0; i < 8; ++i) {
        const double logPhi = logNdtr(x);
        const double error = logPhi - logP;
        if (std::abs(error) <= 1e-15 * std::max(1.0, std::abs(logP))) {
            break;
        }
        const double slope = std::exp(-0.5 * x * x - kLogSqrt2Pi - logPhi);
        x -= error / slope;
    }
    return x;
}

}  // namespace

double ndtr(double a) {
    const double x = a / std::numbers::sqrt2;
    if (x < -1 / std::numbers::sqrt2) {
        return 0.5 * std::erfc(-x);
    }
    if (x < 1 / std::numbers::sqrt2) {
        return 0.5 + 0.5 * std::erf(x);
    }
    return 1.0 - 0.5 * std::erfc(x);
}

double logNdtr(double a) {
    if (a > 6) {
        return -ndtr(-a);
    }
    if (a > -20) {
        return std::log(ndtr(a));
    }
    const double logLhs = -0.5 * a * a - std::log(-a) - kLogSqrt2Pi;
    double lastTotal = 0;
    double rightHandSide = 1;
    double numerator = 1;
    double denominatorFactor = 1;
    const double denominatorStep = 1 / (a * a);
    double sign = 1;
    for (int i = 1; std::abs(lastTotal - rightHandSide) > std::numeric_limits<double>::epsilon();
         ++i) {
        lastTotal = rightHandSide;
        sign = -sign;
        denominatorFactor *= denominatorStep;
        numerator *= 2 * i - 1;
        rightHandSide += sign * numerator * denominatorFactor;
    }
    return logLhs + std::log(rightHandSide);
}

double logGaussMass(double a, double b) {
    if (b <= 0) {
        return logDiff(logNdtr(b), logNdtr(a));
    }
    if (a > 0) {
        return logDiff(logNdtr(-a), logNdtr(-b));
    }
    // Past kWholeMassSigmas a tail holds under 1e-19 and is left out of the sum.
    const double left = a < -kWholeMassSigmas ? 0.0 : ndtr(a);
    const double right = b > kWholeMassSigmas ? 0.0 : ndtr(-b);
    return left + right == 0 ? 0.0 : std::log1p(-left - right);
}

double logCellMass(double a, double b) {
    const double mass = b <= 0  ? ndtr(b) - ndtr(a)
                        : a > 0 ? ndtr(-a) - ndtr(-b)
                                : 1 - ndtr(a) - ndtr(-b);
    return mass > 1e-250 ? std::log(mass) : logGaussMass(a, b);
}

double ndtriExp(double logP) {
    if (logP <= -std::numbers::ln2) {
        return ndtriOfLogLower(logP);
    }
    // Above the median, solve for the upper tail 1 - p, which keeps its digits.
    return -ndtriOfLogLower(std::log(-std::expm1(logP)));
}

double truncatedNormalQuantile(double u, double a, double b) {
    if (u <= 0) {
        return a;
    }
    double x;
    if (a < 0) {
        x = ndtriExp(logAddExp(logNdtr(a), std::log(u) + logGaussMass(a, b)));
    } else {
        x = -ndtriExp(logAddExp(logNdtr(-b), std::log1p(-u) + logGaussMass(a, b)));
    }
    return std::clamp(x, a, b);
}

}  // namespace tunedeck::tpe
