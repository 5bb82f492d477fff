// The problems of the search benchmark, one definition for both sides: Tunedeck evaluates them
// in-process, Optuna through bench_search_objective, so both see the same functions and the
// same parameter ranges. Pure functions apart from the digits data, which is loaded once.
// Not thread-safe (the digits data is loaded lazily into a process-wide slot).
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

#include "core/search_space.h"
#include "digits_mlp.h"

namespace tunedeck::bench {

// One parameter as both libraries can state it: a float or an integer range, maybe in log space
// (integer high is inclusive, as Optuna's suggest_int).
struct ProblemParameter {
    QString name;
    bool integer = false;
    double low = 0;
    double high = 1;
    bool log = false;
};

struct Problem {
    QString name;  // "branin", "hartmann6", "digits_mlp"
    QString title;
    std::vector<ProblemParameter> parameters;
    double optimum = 0;  // the known minimum; NaN when unknown
    // digits_mlp: epochs one quality evaluation trains, and the early-stopping resource's max.
    int epochs = 0;
    int maxEpochs = 0;
};

const std::vector<Problem>& problems();
const Problem* findProblem(const QString& name);

// The problem's parameters as a Tunedeck search space (uniform, loguniform, randint,
// lograndint; the exclusive integer bound is high + 1).
SearchSpace searchSpaceOf(const Problem& problem);
// The problem in the server's `describe` answer (what optuna_side.py builds its space from).
QJsonObject describeProblem(const Problem& problem);

double branin(double x1, double x2);
double hartmann6(const double x[6]);
MlpConfig mlpConfigFrom(const QJsonObject& params);

// The loss to minimise of `params` (validation error after `epochs` for digits_mlp, its
// default epochs when 0). A missing parameter reads as NaN; the result is then NaN.
// `curve`, when given, receives the validation error after every epoch (digits_mlp only).
// The digits data is read on first use from `digitsCsv` (default: defaultDigitsCsv()).
struct Evaluation {
    double value = 0;
    std::vector<double> curve;
    QString error;  // set when the problem is unknown or the data cannot be read
};
Evaluation evaluate(const Problem& problem, const QJsonObject& params, int epochs = 0);

// The digits data, loaded on first call; null with *error set when it cannot be read.
const DigitsData* digitsData(QString* error);
void setDigitsCsv(const QString& path);

// The weight-initialisation and batch-order seed of every digits_mlp evaluation: fixed, so the
// loss is a function of the config alone, as the searchers assume.
constexpr std::uint64_t kMlpSeed = 7;

}  // namespace tunedeck::bench
