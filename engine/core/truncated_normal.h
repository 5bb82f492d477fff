// The standard normal's CDF, its log, masses of intervals and the quantile of a truncated normal,
// accurate far into the tails, as Optuna 3.1's _truncnorm (the tpe searcher's Parzen estimators).
// Pure functions; thread-safe.
#pragma once

namespace tunedeck::tpe {

// Standard normal CDF, accurate in both tails (Optuna's _ndtr_single).
double ndtr(double a);

// log(ndtr(a)); below -20 the asymptotic series, where ndtr underflows (Optuna's
// _log_ndtr_single).
double logNdtr(double a);

// Log of the standard normal mass in [a, b], computed in the left tail where that is exact
// (Optuna's _truncnorm._log_gauss_mass).
double logGaussMass(double a, double b);

// log(ndtr(b) - ndtr(a)): the difference of two CDFs on the side where they keep their digits,
// and the log-space route only where that underflows.
double logCellMass(double a, double b);

// The x with log(ndtr(x)) = logP (Optuna's _ndtri_exp, solved by Newton instead of bisection).
double ndtriExp(double logP);

// Quantile u of the standard normal truncated to [a, b] (Optuna's _truncnorm.ppf).
double truncatedNormalQuantile(double u, double a, double b);

}  // namespace tunedeck::tpe
