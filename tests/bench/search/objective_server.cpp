// bench_search_objective: the benchmark's objectives behind a JSON-lines pipe, so Optuna's side
// (optuna_side.py, one long-lived subprocess) evaluates exactly the functions Tunedeck's side
// calls in-process. One request per line on stdin, one answer per line on stdout:
//   {"op": "describe"}                               -> {"problems": [{name, parameters, ...}]}
//   {"problem": "branin", "params": {"x1": 1, ...}}  -> {"value": 5.2}
//   {"problem": "digits_mlp", "params": {...}, "epochs": 9}
//                                                    -> {"value": 0.04, "curve": [per epoch]}
//   anything wrong                                   -> {"error": "..."}
// Options: --digits CSV (default: the build's bench-data/digits.csv, written on first use).
// Single-threaded; answers in request order.
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "objectives.h"

namespace {

using namespace tunedeck::bench;

QJsonObject answer(const QJsonObject& request) {
    if (request.value(QStringLiteral("op")).toString() == QLatin1String("describe")) {
        QJsonArray list;
        for (const Problem& problem : problems()) {
            list.append(describeProblem(problem));
        }
        return {{QStringLiteral("problems"), list}};
    }
    const QString name = request.value(QStringLiteral("problem")).toString();
    const Problem* problem = findProblem(name);
    if (!problem) {
        return {{QStringLiteral("error"), QStringLiteral("unknown problem '%1'").arg(name)}};
    }
    const int epochs = request.value(QStringLiteral("epochs")).toInt(0);
    const Evaluation evaluation =
        evaluate(*problem, request.value(QStringLiteral("params")).toObject(), epochs);
    if (!evaluation.error.isEmpty()) {
        return {{QStringLiteral("error"), evaluation.error}};
    }
    // NaN is not JSON; a config that cannot be evaluated is reported as null (Optuna: FAIL).
    QJsonObject out{{QStringLiteral("value"), std::isfinite(evaluation.value)
                                                  ? QJsonValue(evaluation.value)
                                                  : QJsonValue()}};
    if (!evaluation.curve.empty()) {
        QJsonArray curve;
        for (double v : evaluation.curve) {
            curve.append(v);
        }
        out.insert(QStringLiteral("curve"), curve);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (const auto at = args.indexOf(QStringLiteral("--digits")); at > 0 && at + 1 < args.size()) {
        setDigitsCsv(args[at + 1]);
    }
    std::string line;
    while (std::getline(std::cin, line)) {
        QJsonParseError parseError;
        const QJsonDocument request =
            QJsonDocument::fromJson(QByteArray::fromStdString(line), &parseError);
        QJsonObject reply;
        if (!request.isObject()) {
            reply = {{QStringLiteral("error"),
                      QStringLiteral("not a JSON object: %1").arg(parseError.errorString())}};
        } else {
            reply = answer(request.object());
        }
        const QByteArray out = QJsonDocument(reply).toJson(QJsonDocument::Compact);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    }
    return 0;
}
