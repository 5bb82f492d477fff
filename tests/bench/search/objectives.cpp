#include "objectives.h"

#include <QJsonArray>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "classic_functions.h"

namespace tunedeck::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString& digitsCsvPath() {
    static QString path = defaultDigitsCsv();
    return path;
}

double number(const QJsonObject& params, const QString& name) {
    const QJsonValue value = params.value(name);
    return value.isDouble() ? value.toDouble() : kNaN;
}

}  // namespace

const std::vector<Problem>& problems() {
    static const std::vector<Problem> list = {
        {QStringLiteral("branin"),
         QStringLiteral("Branin (2-d)"),
         {{QStringLiteral("x1"), false, -5, 10, false},
          {QStringLiteral("x2"), false, 0, 15, false}},
         0.397887357729739,
         0,
         0},
        {QStringLiteral("hartmann6"),
         QStringLiteral("Hartmann-6"),
         {{QStringLiteral("x0"), false, 0, 1, false},
          {QStringLiteral("x1"), false, 0, 1, false},
          {QStringLiteral("x2"), false, 0, 1, false},
          {QStringLiteral("x3"), false, 0, 1, false},
          {QStringLiteral("x4"), false, 0, 1, false},
          {QStringLiteral("x5"), false, 0, 1, false}},
         -3.32236801141551,
         0,
         0},
        // Ranges wide enough that a bad corner diverges or underfits, as a user's first space.
        {QStringLiteral("digits_mlp"),
         QStringLiteral("MLP on digits (val. error)"),
         {{QStringLiteral("learning_rate"), false, 1e-4, 0.3, true},
          {QStringLiteral("width"), true, 8, 128, true},
          {QStringLiteral("batch_size"), true, 16, 256, true},
          {QStringLiteral("weight_decay"), false, 1e-6, 1e-1, true},
          {QStringLiteral("beta1"), false, 0.5, 0.99, false}},
         kNaN,
         4,
         27},
    };
    return list;
}

const Problem* findProblem(const QString& name) {
    for (const Problem& problem : problems()) {
        if (problem.name == name) {
            return &problem;
        }
    }
    return nullptr;
}

SearchSpace searchSpaceOf(const Problem& problem) {
    SearchSpace space;
    for (const ProblemParameter& p : problem.parameters) {
        Parameter parameter;
        parameter.name = p.name;
        parameter.kind = Parameter::Kind::Sampled;
        parameter.domain.low = p.low;
        parameter.domain.high = p.integer ? p.high + 1 : p.high;
        if (p.integer) {
            parameter.domain.kind = p.log ? DomainKind::LogRandInt : DomainKind::RandInt;
        } else {
            parameter.domain.kind = p.log ? DomainKind::LogUniform : DomainKind::Uniform;
        }
        space.parameters.push_back(parameter);
    }
    return space;
}

QJsonObject describeProblem(const Problem& problem) {
    QJsonArray parameters;
    for (const ProblemParameter& p : problem.parameters) {
        parameters.append(QJsonObject{{QStringLiteral("name"), p.name},
                                      {QStringLiteral("type"), p.integer ? "int" : "float"},
                                      {QStringLiteral("low"), p.low},
                                      {QStringLiteral("high"), p.high},
                                      {QStringLiteral("log"), p.log}});
    }
    QJsonObject out{{QStringLiteral("name"), problem.name},
                    {QStringLiteral("title"), problem.title},
                    {QStringLiteral("parameters"), parameters},
                    {QStringLiteral("epochs"), problem.epochs},
                    {QStringLiteral("max_epochs"), problem.maxEpochs}};
    if (std::isfinite(problem.optimum)) {
        out.insert(QStringLiteral("optimum"), problem.optimum);
    }
    return out;
}

double branin(double x1, double x2) {
    return testing::classic::branin(x1, x2);
}

double hartmann6(const double x[6]) {
    return testing::classic::hartmann6(x);
}

MlpConfig mlpConfigFrom(const QJsonObject& params) {
    MlpConfig config;
    config.learningRate = number(params, QStringLiteral("learning_rate"));
    config.width = int(std::lround(number(params, QStringLiteral("width"))));
    config.batchSize = int(std::lround(number(params, QStringLiteral("batch_size"))));
    config.weightDecay = number(params, QStringLiteral("weight_decay"));
    config.beta1 = number(params, QStringLiteral("beta1"));
    return config;
}

void setDigitsCsv(const QString& path) {
    digitsCsvPath() = path;
}

const DigitsData* digitsData(QString* error) {
    static std::unique_ptr<DigitsData> data;
    static QString loadError;
    if (!data && loadError.isEmpty()) {
        if (auto loaded = loadDigits(digitsCsvPath(), &loadError)) {
            data = std::make_unique<DigitsData>(std::move(*loaded));
        }
    }
    if (!data && error) {
        *error = loadError;
    }
    return data.get();
}

Evaluation evaluate(const Problem& problem, const QJsonObject& params, int epochs) {
    Evaluation result;
    if (problem.name == QLatin1String("branin")) {
        result.value =
            branin(number(params, QStringLiteral("x1")), number(params, QStringLiteral("x2")));
    } else if (problem.name == QLatin1String("hartmann6")) {
        double x[6];
        for (int i = 0; i < 6; ++i) {
            x[i] = number(params, QStringLiteral("x%1").arg(i));
        }
        result.value = hartmann6(x);
    } else if (problem.name == QLatin1String("digits_mlp")) {
        const DigitsData* data = digitsData(&result.error);
        if (!data) {
            result.value = kNaN;
            return result;
        }
        for (const ProblemParameter& p : problem.parameters) {
            const double v = number(params, p.name);
            if (!std::isfinite(v)) {
                result.value = kNaN;
                return result;
            }
        }
        MlpTraining training(*data, mlpConfigFrom(params), kMlpSeed);
        const int total = epochs > 0 ? epochs : problem.epochs;
        for (int e = 0; e < total; ++e) {
            result.value = training.trainEpoch();
            result.curve.push_back(result.value);
        }
    } else {
        result.error = QStringLiteral("unknown problem '%1'").arg(problem.name);
        result.value = kNaN;
    }
    return result;
}

}  // namespace tunedeck::bench
