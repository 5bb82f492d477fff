// bench_search: Tunedeck's side of the search benchmark, and the printer of the combined table.
// It runs the sections in-process (quality, early stopping, overhead, PBT), reads Optuna's
// figures written by optuna_side.py, and prints one table with both. Figures, not pass/fail:
// the exit status is 0 whenever the sections ran, whatever the numbers.
//
//   bench_search [--quick] [--sections quality,stopping,overhead,pbt] [--optuna FILE]
//                [--save FILE] [--digits CSV]
//   bench_search --table SAVED.json [--optuna FILE]     (print again without running)
//   bench_search [--quick] --print-sizes                (the sizes optuna_side.py must use)
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <cstdio>

#include "bench_spec.h"
#include "bench_table.h"
#include "early_stopping.h"
#include "objectives.h"
#include "overhead.h"
#include "pbt_toy.h"
#include "quality.h"

namespace {

using namespace tunedeck::bench;

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        if (!path.isEmpty()) {
            std::fprintf(stderr, "bench_search: cannot read %s; its rows are left out\n",
                         qPrintable(path));
        }
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonArray ints(const std::vector<int>& values) {
    QJsonArray array;
    for (int n : values) {
        array.append(n);
    }
    return array;
}

// What optuna_side.py runs with, so both sides always use the same sizes.
QJsonObject sizesToJson(const BenchSizes& sizes) {
    return {{QStringLiteral("quality_seeds"), sizes.qualitySeeds},
            {QStringLiteral("quality_at"), ints(sizes.qualityAt)},
            {QStringLiteral("quality_problems"), QJsonArray::fromStringList(sizes.qualityProblems)},
            {QStringLiteral("quality_row_budget_s"), sizes.qualityRowBudgetSeconds},
            {QStringLiteral("stopping_seeds"), sizes.stoppingSeeds},
            {QStringLiteral("stopping_fifo_trials"), sizes.stoppingFifoTrials},
            {QStringLiteral("stopping_max_epochs"), sizes.stoppingMaxEpochs},
            {QStringLiteral("stopping_row_budget_s"), sizes.stoppingRowBudgetSeconds},
            {QStringLiteral("overhead_repeats"), sizes.overheadRepeats},
            {QStringLiteral("overhead_history"), ints(sizes.overheadHistory)}};
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Tunedeck's searchers and schedulers beside Optuna's (run_search_bench "
                       "runs both sides)."));
    parser.addHelpOption();
    const QCommandLineOption quick(QStringLiteral("quick"),
                                   QStringLiteral("Tiny sizes: a smoke run, no useful figures."));
    const QCommandLineOption sections(
        QStringLiteral("sections"),
        QStringLiteral("Comma-separated: quality,stopping,overhead,pbt."), QStringLiteral("list"),
        QStringLiteral("quality,stopping,overhead,pbt"));
    const QCommandLineOption optuna(QStringLiteral("optuna"),
                                    QStringLiteral("Optuna's figures (optuna_side.py --out)."),
                                    QStringLiteral("file"));
    const QCommandLineOption save(QStringLiteral("save"),
                                  QStringLiteral("Write Tunedeck's figures to this JSON file."),
                                  QStringLiteral("file"));
    const QCommandLineOption table(
        QStringLiteral("table"), QStringLiteral("Print the table from saved figures; run nothing."),
        QStringLiteral("file"));
    const QCommandLineOption digits(QStringLiteral("digits"),
                                    QStringLiteral("The digits CSV (written on first use)."),
                                    QStringLiteral("file"), defaultDigitsCsv());
    const QCommandLineOption printSizes(
        QStringLiteral("print-sizes"),
        QStringLiteral("Print the sizes (seeds, evaluations, ...) as JSON for optuna_side.py."));
    const QCommandLineOption qualitySeeds(QStringLiteral("quality-seeds"),
                                          QStringLiteral("Seeds per quality row (default 20)."),
                                          QStringLiteral("n"));
    const QCommandLineOption qualityAt(
        QStringLiteral("quality-at"),
        QStringLiteral("Evaluations after which the best is read (default 50,200)."),
        QStringLiteral("list"));
    const QCommandLineOption problemsOption(
        QStringLiteral("problems"),
        QStringLiteral("Quality problems: branin,hartmann6,digits_mlp (default all)."),
        QStringLiteral("list"));
    const QCommandLineOption stoppingSeeds(
        QStringLiteral("stopping-seeds"),
        QStringLiteral("Seeds per early-stopping row (default 5)."), QStringLiteral("n"));
    parser.addOptions({quick, sections, optuna, save, table, digits, printSizes, qualitySeeds,
                       qualityAt, problemsOption, stoppingSeeds});
    parser.process(app);
    BenchSizes sizes = parser.isSet(quick) ? BenchSizes::quick() : BenchSizes();
    // A count option into *out when given; false (after saying why) when it is not a count.
    const auto readCount = [&](const QCommandLineOption& option, int* out) {
        if (!parser.isSet(option)) {
            return true;
        }
        bool ok = false;
        const int n = parser.value(option).toInt(&ok);
        if (!ok || n < 1) {
            std::fprintf(stderr, "bench_search: --%s wants a whole number >= 1\n",
                         qPrintable(option.names().front()));
            return false;
        }
        *out = n;
        return true;
    };
    if (!readCount(qualitySeeds, &sizes.qualitySeeds) ||
        !readCount(stoppingSeeds, &sizes.stoppingSeeds)) {
        return 2;
    }
    if (parser.isSet(qualityAt)) {
        sizes.qualityAt.clear();
        for (const QString& part : parser.value(qualityAt).split(QLatin1Char(','))) {
            bool ok = false;
            const int n = part.toInt(&ok);
            if (!ok || n < 1 || (!sizes.qualityAt.empty() && n <= sizes.qualityAt.back())) {
                std::fprintf(stderr, "bench_search: --quality-at wants increasing counts >= 1\n");
                return 2;
            }
            sizes.qualityAt.push_back(n);
        }
    }
    if (parser.isSet(problemsOption)) {
        sizes.qualityProblems = parser.value(problemsOption).split(QLatin1Char(','));
        for (const QString& name : sizes.qualityProblems) {
            if (!findProblem(name)) {
                std::fprintf(stderr, "bench_search: --problems: no problem '%s'\n",
                             qPrintable(name));
                return 2;
            }
        }
    }
    if (parser.isSet(printSizes)) {
        std::puts(QJsonDocument(sizesToJson(sizes)).toJson(QJsonDocument::Compact).constData());
        return 0;
    }

    setDigitsCsv(parser.value(digits));
    QJsonObject ours;
    if (parser.isSet(table)) {
        ours = readJson(parser.value(table));
    } else {
        const QStringList wanted = parser.value(sections).split(QLatin1Char(','));
        ours.insert(QStringLiteral("sizes"), sizesToJson(sizes));
        if (wanted.contains(QStringLiteral("quality"))) {
            ours.insert(QStringLiteral("quality"), runQuality(sizes));
        }
        if (wanted.contains(QStringLiteral("stopping"))) {
            ours.insert(QStringLiteral("early_stopping"), runEarlyStopping(sizes));
        }
        if (wanted.contains(QStringLiteral("overhead"))) {
            ours.insert(QStringLiteral("overhead"), runOverhead(sizes));
        }
        if (wanted.contains(QStringLiteral("pbt"))) {
            ours.insert(QStringLiteral("pbt"), runPbtToy(sizes));
        }
        if (parser.isSet(save)) {
            QFile file(parser.value(save));
            if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(ours).toJson()) < 0) {
                std::fprintf(stderr, "bench_search: cannot write %s\n",
                             qPrintable(parser.value(save)));
                return 1;
            }
        }
    }
    const QString text = formatTable(ours, readJson(parser.value(optuna)));
    std::fputs(text.toUtf8().constData(), stdout);
    return 0;
}
