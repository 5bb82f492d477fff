// The command line's views of a large history (issue 31: a 20,000-trial, 200,000-result
// history, `show` <= 1 s and `export --format csv` <= 2 s), printed beside the app's load of the
// same file through the history reader (its trials and one metric's curves), measured in the
// same run. The history is written straight through the engine's store (ExperimentStore), with
// the fields and events a real run records: each result carries the engine's automatic fields,
// each trial its RUNNING and TERMINATED status changes. Medians of --runs runs (3). Options:
// --trials N (20000), --results-per-trial N (10), --reference-engine PATH (another
// tunedeck-engine timed on the same history, e.g. a build of the previous commit), --keep (leave
// the history in place, for profiling), --smoke (tiny sizes, for ctest). Not a test: it prints
// figures and asserts none.
#include <sys/resource.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "median.h"
#include "process_stats.h"
#include "store/experiment_store.h"
#include "store/history_reader.h"
#include "written_history.h"

using namespace tunedeck;

namespace {

const QString kBin = QStringLiteral(TUNEDECK_BIN_DIR);

constexpr const char* kSpec =
    "name: history\n"
    "trainable:\n  command: python3 train.py\n"
    "search_space:\n"
    "  lr: {loguniform: [0.0001, 0.1]}\n"
    "  width: {choice: [16, 32, 64]}\n"
    "  optimizer: {choice: [sgd, adam]}\n"
    "metric: loss\nmode: min\n";

bool writeHistory(const QString& folder, int trials, int resultsPerTrial) {
    bench::HistoryShape shape;
    shape.specText = QString::fromUtf8(kSpec);
    shape.config = [](int t) {
        return QJsonObject{{"lr", 0.0001 * (1 + t % 997)},
                           {"width", 16 << (t % 3)},
                           {"optimizer", t % 2 ? "adam" : "sgd"}};
    };
    shape.configFloats = {QStringLiteral("lr")};
    shape.metrics = [](int t, int it) {
        const double loss = 1.0 / (it + t % 13) + 0.001 * (t % 101);
        return QJsonObject{{"loss", loss}, {"accuracy", 1 - loss / 2}};
    };
    shape.statusEvents = true;
    return bench::writeHistory(folder, trials, resultsPerTrial, shape);
}

double processCpuSeconds() {
    struct rusage usage = {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct Timing {
    double wall = -1;  // seconds; -1 when a run failed
    double cpu = 0;    // the process's own user and system seconds, which a shared machine's
                       // other work does not add to
};

// Medians of `runs` runs of tunedeck-engine `engine` with `args`.
Timing engineSeconds(const QString& engine, const QStringList& args, int runs) {
    std::vector<std::string> argv{engine.toStdString()};
    for (const QString& a : args) {
        argv.push_back(a.toStdString());
    }
    std::vector<double> wall;
    std::vector<double> cpu;
    for (int i = 0; i < runs; ++i) {
        const ProcessStats s = runMeasured(argv);
        if (s.exitCode != 0) {
            return {};
        }
        wall.push_back(s.wallSeconds);
        cpu.push_back(s.cpuSeconds);
    }
    return {median(wall), median(cpu)};
}

// What the app does to open a finished history (app/models/history_reader.cpp): its trials and
// the curves of its metric, through the history reader, on this thread.
Timing readerSeconds(const QString& database, int runs, std::int64_t* results) {
    std::vector<double> wall;
    std::vector<double> cpu;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer clock;
        clock.start();
        const double cpuStart = processCpuSeconds();
        std::unique_ptr<store::HistoryReader> reader;
        std::vector<store::HistoryTrial> trials;
        std::vector<store::MetricCurve> curves;
        if (!store::HistoryReader::open(database, &reader) || !reader->readTrials(&trials) ||
            !reader->readCurves(QStringLiteral("loss"), trials, &curves, results)) {
            return {};
        }
        wall.push_back(double(clock.nsecsElapsed()) / 1e9);
        cpu.push_back(processCpuSeconds() - cpuStart);
    }
    return {median(wall), median(cpu)};
}

// What `resume` checks before it trusts a history (RUNTIME.md, "Durability"): opening it for
// writing (SQLite's quick_check reads every page), then every stored JSON value checked
// (ExperimentStore::checkStoredValues); medians of `runs`, in this process.
struct ResumeChecks {
    Timing open;
    Timing values;
};
ResumeChecks resumeCheckSeconds(const QString& database, int runs) {
    std::vector<double> openWall, openCpu, valuesWall, valuesCpu;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer clock;
        clock.start();
        double cpuStart = processCpuSeconds();
        std::unique_ptr<ExperimentStore> store;
        if (!ExperimentStore::open(database, ExperimentStore::Mode::ReadWrite, &store)) {
            return {};
        }
        openWall.push_back(double(clock.nsecsElapsed()) / 1e9);
        openCpu.push_back(processCpuSeconds() - cpuStart);
        clock.restart();
        cpuStart = processCpuSeconds();
        if (!store->checkStoredValues()) {
            return {};
        }
        valuesWall.push_back(double(clock.nsecsElapsed()) / 1e9);
        valuesCpu.push_back(processCpuSeconds() - cpuStart);
    }
    return {{median(openWall), median(openCpu)}, {median(valuesWall), median(valuesCpu)}};
}

void printLine(const char* what, const Timing& t, const QString& target, const Timing& reference,
               const Timing& load) {
    if (t.wall < 0) {
        std::printf("   %-22s failed\n", what);
        return;
    }
    std::printf("   %-22s %6.2f s wall %6.2f s CPU  (%s; %.1fx the app's load", what, t.wall, t.cpu,
                qPrintable(target), load.wall > 0 ? t.wall / load.wall : 0.0);
    if (reference.wall > 0) {
        std::printf("; reference engine %.2f s wall %.2f s CPU, %.1fx faster", reference.wall,
                    reference.cpu, reference.wall / t.wall);
    }
    std::printf(")\n");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const bool smoke = args.contains(QStringLiteral("--smoke"));
    auto option = [&](const char* name, const QString& fallback) {
        const int at = int(args.indexOf(QString::fromLatin1(name)));
        return at >= 0 && at + 1 < args.size() ? args[at + 1] : fallback;
    };
    const int trials = smoke ? 50 : option("--trials", QStringLiteral("20000")).toInt();
    const int perTrial = option("--results-per-trial", QStringLiteral("10")).toInt();
    const int runs = smoke ? 1 : option("--runs", QStringLiteral("3")).toInt();
    const QString engine = kBin + QStringLiteral("/tunedeck-engine");
    const QString reference = option("--reference-engine", QString());
    if (!reference.isEmpty() && !QFileInfo(reference).isExecutable()) {
        std::fprintf(stderr, "--reference-engine %s is not an executable\n", qPrintable(reference));
        return 2;
    }

    QTemporaryDir dir;
    dir.setAutoRemove(!args.contains(QStringLiteral("--keep")));
    const QString folder = dir.filePath(QStringLiteral("history"));
    std::printf("History views: %d trials, %d results (medians of %d runs)%s\n", trials,
                trials * perTrial, runs, smoke ? " (smoke sizes)" : "");
    QElapsedTimer clock;
    clock.start();
    if (!writeHistory(folder, trials, perTrial)) {
        std::fprintf(stderr, "cannot write the history\n");
        return 1;
    }
    std::printf("   written through the store in %.2f s%s\n", double(clock.nsecsElapsed()) / 1e9,
                dir.autoRemove() ? "" : qPrintable(QStringLiteral(", kept in ") + folder));
    std::fflush(stdout);

    std::int64_t results = 0;
    const Timing load =
        readerSeconds(folder + QStringLiteral("/experiment.sqlite"), runs, &results);
    std::printf(
        "   %-22s %6.2f s wall %6.2f s CPU  (its trials and the curves of its %lld "
        "results, in this process: the reference)\n",
        "app's history load", load.wall, load.cpu, static_cast<long long>(results));
    struct View {
        const char* what;
        QStringList args;
        QString target;
    };
    const QString csv = dir.filePath(QStringLiteral("history.csv"));
    const QString json = dir.filePath(QStringLiteral("history.json"));
    const std::vector<View> views{
        {"show", {"show", folder}, QStringLiteral("target <= 1 s")},
        {"best", {"best", folder, "--format", "json"}, QStringLiteral("no target")},
        {"export --format csv",
         {"export", folder, "--format", "csv", "--output", csv},
         QStringLiteral("target <= 2 s")},
        {"export --format json",
         {"export", folder, "--format", "json", "--output", json},
         QStringLiteral("no target")},
    };
    bool allRan = load.wall >= 0;
    for (const View& view : views) {
        const Timing t = engineSeconds(engine, view.args, runs);
        const Timing before =
            reference.isEmpty() ? Timing{} : engineSeconds(reference, view.args, runs);
        printLine(view.what, t, view.target, before, load);
        allRan = allRan && t.wall >= 0;
    }
    const ResumeChecks checks =
        resumeCheckSeconds(folder + QStringLiteral("/experiment.sqlite"), runs);
    printLine("resume: quick_check", checks.open, QStringLiteral("every page read"), {}, load);
    printLine("resume: value check", checks.values,
              QStringLiteral("every JSON value checked; recovery itself reads each trial's latest"),
              {}, load);
    allRan = allRan && checks.open.wall >= 0 && checks.values.wall >= 0;
    return allRan ? 0 : 1;
}
