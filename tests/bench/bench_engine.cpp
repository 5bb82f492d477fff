// Engine benchmarks of the headless-engine issue, each printed beside its reference measured in
// the same run (this machine is shared and noisy: medians of repeated runs, ratios):
//   1. bookkeeping: N one-report trials through the engine vs the same trainable spawned N times
//      by a plain loop with the same concurrency (the floor);
//   2. result throughput: concurrent trials reporting as fast as they can, all persisted, with
//      an opt-in report window (PROTOCOL.md) vs each report waiting for its answer, and the
//      engine's memory as the history grows to 1M results;
//   3. resume: recovery time of a 1,000-trial, 100,000-result experiment;
//   4. scale: N instant trials vs 10N (10 reports each, 2 slots): the time ratio (flat cost per
//      trial is 10x), the trials per second at the start and the end of the larger run, and
//      `show` and `export` of its history.
// Ray Tune's published figures are printed as anchors. `--smoke` runs tiny sizes (used by ctest to
// keep the benchmark working; no figure is asserted); `--scale` runs section 4 alone.
#include <sqlite3.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "median.h"
#include "process_stats.h"

namespace {

const QString kBin = QStringLiteral(TUNEDECK_BIN_DIR);
bool g_allRunsWorked = true;  // the smoke test fails when a run did not complete as it should

QString writeExperiment(const QString& dir, const QString& name, int trials, int reports,
                        double cpu, int concurrency, int workMs = 0, int window = 1) {
    const QString path = dir + '/' + name + ".yaml";
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(path));
    }
    file.write(QStringLiteral("name: %1\n"
                              "trainable:\n  command: %2/bench_trainable\n"
                              "resources_per_trial: {cpu: %3}\n"
                              "search_space:\n  reports: %4\n  work_ms: %7\n  window: %8\n"
                              "  x: {uniform: [0, 1]}\n"
                              "num_samples: %5\nmetric: loss\nmode: min\n"
                              "max_concurrent_trials: %6\nseed: 1\n")
                   .arg(name, kBin)
                   .arg(cpu)
                   .arg(reports)
                   .arg(trials)
                   .arg(concurrency)
                   .arg(workMs)
                   .arg(window)
                   .toUtf8());
    return path;
}

ProcessStats runEngine(const QStringList& args) {
    std::vector<std::string> argv{(kBin + "/tunedeck-engine").toStdString()};
    for (const QString& a : args) {
        argv.push_back(a.toStdString());
    }
    return runMeasured(argv);
}

// The first column of the first row of `sql` (-1 when there is none).
double sqliteNumber(const QString& db, const char* sql) {
    sqlite3* handle = nullptr;
    double value = -1;
    if (sqlite3_open_v2(db.toUtf8().constData(), &handle, SQLITE_OPEN_READWRITE, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(handle, sql, -1, &s, nullptr) == SQLITE_OK &&
            sqlite3_step(s) == SQLITE_ROW) {
            value = sqlite3_column_double(s, 0);
        }
        sqlite3_finalize(s);
    }
    sqlite3_close(handle);
    return value;
}

long long sqliteCount(const QString& db, const char* sql) {
    return static_cast<long long>(sqliteNumber(db, sql));
}

void bookkeeping(const QString& dir, int trials, int repeats, int workMs) {
    const std::string trainable = (kBin + "/bench_trainable").toStdString();
    const std::string config = "{\"reports\":1,\"work_ms\":" + std::to_string(workMs) + "}";
    std::vector<double> floor, engine;
    for (int r = 0; r < repeats; ++r) {
        floor.push_back(runFloor(trainable, config, trials, 2));
        const QString yaml = writeExperiment(dir, QStringLiteral("book%1-%2").arg(workMs).arg(r),
                                             trials, 1, 1, 2, workMs);
        const ProcessStats s = runEngine({"run", yaml, "--quiet", "--results", dir + "/results"});
        if (s.exitCode != 0) {
            std::printf("engine run failed (exit %d)\n", s.exitCode);
            g_allRunsWorked = false;
        }
        engine.push_back(s.wallSeconds);
    }
    const double f = median(floor), e = median(engine);
    std::printf("1. Bookkeeping: %d one-report trials of %d ms, 2 at a time (median of %d runs)\n",
                trials, workMs, repeats);
    std::printf("   floor (plain spawn loop)   %8.2f s   %7.1f trials/s\n", f, trials / f);
    std::printf("   tunedeck-engine            %8.2f s   %7.1f trials/s\n", e, trials / e);
    std::printf(
        "   overhead ratio             %8.2fx   (target <= 1.20x; Ray Tune's published "
        "run: 715 s / 625 s floor = 1.14x)\n",
        e / f);
    std::printf("   engine cost per trial      %8.2f ms\n\n", (e - f) * 1000.0 / trials * 2);
}

struct ThroughputRun {
    long long total = 0;
    long long stored = 0;
    ProcessStats stats;
    std::vector<std::pair<long long, long>> memory;  // (results stored, engine RSS in kB)
    double perSecond() const { return double(total) / stats.wallSeconds; }
};

// `trials` trials, all at once, reporting `total` results in all as fast as they can with a
// report window of `window`; the engine's resident memory is sampled as the history grows.
ThroughputRun measureThroughput(const QString& dir, long long total, int trials, int window) {
    const QString name = QStringLiteral("results%1-w%2").arg(total).arg(window);
    const QString yaml =
        writeExperiment(dir, name, trials, int(total / trials), 1.0 / trials, trials, 0, window);
    const QString db = dir + "/results/" + name + "/experiment.sqlite";
    // The first sample past each tenth of the run.
    std::vector<long long> marks;
    for (int tenth = 1; tenth <= 9; ++tenth) {
        marks.push_back(total * tenth / 10);
    }
    ThroughputRun run;
    run.total = total;
    std::vector<std::string> argv{(kBin + "/tunedeck-engine").toStdString(),
                                  "run",
                                  yaml.toStdString(),
                                  "--quiet",
                                  "--results",
                                  (dir + "/results").toStdString()};
    run.stats = runMeasured(argv, {}, true, [&](int pid) {
        if (run.memory.size() == marks.size() || !QFile::exists(db)) {
            return;
        }
        const long long stored = sqliteCount(db, "SELECT COUNT(*) FROM results");
        if (stored >= marks[run.memory.size()]) {
            run.memory.emplace_back(stored, residentKb(pid));
        }
    });
    run.stored = sqliteCount(db, "SELECT COUNT(*) FROM results");
    g_allRunsWorked = g_allRunsWorked && run.stats.exitCode == 0 && run.stored == total;
    return run;
}

void printThroughput(const char* label, const ThroughputRun& run) {
    std::printf("   %-34s %8lld results in %6.2f s: %7.0f results/s, persisted %lld/%lld%s\n",
                label, run.total, run.stats.wallSeconds, run.perSecond(), run.stored, run.total,
                run.stats.exitCode == 0 ? "" : " (engine failed)");
}

// The reference is the same trials answered report by report (the protocol's default); the
// figure is the opt-in report window (PROTOCOL.md, "Report windows") over the whole history.
void throughput(const QString& dir, long long total, long long referenceTotal, int trials,
                int window) {
    std::printf(
        "2. Result throughput: %d concurrent trials reporting as fast as they can, every "
        "result persisted\n",
        trials);
    std::fflush(stdout);
    const ThroughputRun reference = measureThroughput(dir, referenceTotal, trials, 1);
    printThroughput("each report waits (window 1)", reference);
    std::fflush(stdout);
    const ThroughputRun windowed = measureThroughput(dir, total, trials, window);
    const std::string label = "report window of " + std::to_string(window);
    printThroughput(label.c_str(), windowed);
    std::printf("   speed-up over waiting per report   %8.2fx\n",
                windowed.perSecond() / reference.perSecond());
    for (const auto& [count, kb] : windowed.memory) {
        std::printf("   engine RSS with %8lld results stored: %6.1f MB\n", count, kb / 1024.0);
    }
    std::printf("   engine peak RSS over the run:             %6.1f MB (window 1 run: %.1f MB)\n",
                windowed.stats.peakRssKb / 1024.0, reference.stats.peakRssKb / 1024.0);
    std::printf(
        "   target >= 50,000 results/s with flat memory; Ray Tune advises staying under "
        "~1,000 results/s per node\n\n");
}

void resume(const QString& dir, int trials, int reports) {
    const QString name = QStringLiteral("resume");
    const QString yaml = writeExperiment(dir, name, trials, reports, 1, 2);
    const ProcessStats built = runEngine({"run", yaml, "--quiet", "--results", dir + "/results"});
    const QString folder = dir + "/results/" + name;
    const QString db = folder + "/experiment.sqlite";
    // As if the engine died with the last half of the trials running.
    sqliteCount(db, QStringLiteral("UPDATE trials SET status = 'RUNNING' WHERE idx >= %1")
                        .arg(trials / 2)
                        .toUtf8()
                        .constData());
    sqliteCount(db, "UPDATE experiment SET status = 'running'");
    const long long results = sqliteCount(db, "SELECT COUNT(*) FROM results");
    const QString events = dir + "/resume-events.jsonl";
    const double launched = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    const ProcessStats s = runEngine({"resume", folder, "--quiet", "--events", events});
    double recovered = 0, firstRunning = 0;
    QFile file(events);
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            const QString type = e.value("type").toString();
            if (type == "experiment_started" && recovered == 0) {
                recovered = e.value("time").toDouble() - launched;
            }
            if (type == "trial_status" && e.value("status").toString() == "RUNNING" &&
                firstRunning == 0) {
                firstRunning = e.value("time").toDouble() - launched;
            }
        }
    }
    g_allRunsWorked = g_allRunsWorked && s.exitCode == 0 && recovered > 0;
    std::printf("3. Resume: %d trials, %lld results, %d left unfinished (built in %.1f s)\n",
                trials, results, trials - trials / 2, built.wallSeconds);
    std::printf("   history loaded, trials recovered   %6.3f s after launch (target < 2 s)\n",
                recovered);
    std::printf("   first trial running again          %6.3f s after launch\n", firstRunning);
    std::printf("   whole resume to the end            %6.2f s (exit %d)\n\n", s.wallSeconds,
                s.exitCode);
}

// Trials per second over the first and the last tenth of a run, from the trials' finish times.
std::pair<double, double> rateAtStartAndEnd(const QString& db, int trials) {
    const int tenth = std::max(1, trials / 10);
    const auto span = [&](const char* order) {
        const QString sql = QStringLiteral(
                                "SELECT MAX(finished_at) - MIN(finished_at) FROM (SELECT "
                                "finished_at FROM trials ORDER BY finished_at %1 LIMIT %2)")
                                .arg(QLatin1String(order))
                                .arg(tenth);
        const double seconds = sqliteNumber(db, sql.toUtf8().constData());
        return seconds > 0 ? (tenth - 1) / seconds : 0.0;
    };
    return {span("ASC"), span("DESC")};
}

void scale(const QString& dir, int small, int factor) {
    std::printf("4. Scale: instant trials, 10 reports each, 2 at a time\n");
    double smallSeconds = 0;
    for (const int trials : {small, small * factor}) {
        const QString name = QStringLiteral("scale%1").arg(trials);
        const QString yaml = writeExperiment(dir, name, trials, 10, 1, 2);
        const ProcessStats s = runEngine({"run", yaml, "--quiet", "--results", dir + "/results"});
        g_allRunsWorked = g_allRunsWorked && s.exitCode == 0;
        const QString folder = dir + "/results/" + name;
        const auto [first, last] = rateAtStartAndEnd(folder + "/experiment.sqlite", trials);
        std::printf(
            "   %6d trials  %8.1f s  %7.1f trials/s  (first tenth %6.1f/s, last tenth "
            "%6.1f/s: %.2fx)\n",
            trials, s.wallSeconds, trials / s.wallSeconds, first, last,
            last > 0 ? first / last : 0.0);
        if (trials == small) {
            smallSeconds = s.wallSeconds;
            continue;
        }
        std::printf(
            "   time ratio %d / %d trials: %.2fx (target <= %.0fx; flat cost is %dx; "
            "before the roster: 1,000 -> 10,000 was 9 s -> 106 s, 11.8x, and 30,000 "
            "ran at 16 trials/s near its end)\n",
            small * factor, small, s.wallSeconds / smallSeconds, factor * 1.1, factor);
        const ProcessStats show = runEngine({"show", folder});
        const ProcessStats exported =
            runEngine({"export", folder, "--format", "csv", "--output", dir + "/scale.csv"});
        g_allRunsWorked = g_allRunsWorked && show.exitCode == 0 && exported.exitCode == 0;
        std::printf(
            "   show of the %d-trial history     %6.2f s (target <= 1 s; before: 5.7 s at "
            "30,000 trials)\n",
            trials, show.wallSeconds);
        std::printf(
            "   export --format csv                %6.2f s (target <= 2 s; before: 9.5 s)"
            "\n\n",
            exported.wallSeconds);
    }
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const bool smoke = app.arguments().contains(QStringLiteral("--smoke"));
    QTemporaryDir dir;
    std::printf("tunedeck engine benchmarks%s (%s)\n\n", smoke ? " (smoke sizes)" : "",
                qPrintable(QSysInfo::prettyProductName()));
    std::fflush(stdout);
    if (app.arguments().contains(QStringLiteral("--scale"))) {  // section 4 alone
        scale(dir.path(), 2000, 10);
        return g_allRunsWorked ? 0 : 1;
    }
    bookkeeping(dir.path(), smoke ? 10 : 400, smoke ? 1 : 3, 0);
    std::fflush(stdout);
    bookkeeping(dir.path(), smoke ? 10 : 200, smoke ? 1 : 3, 50);
    std::fflush(stdout);
    throughput(dir.path(), smoke ? 4000 : 1000000, smoke ? 4000 : 200000, 16, 64);
    std::fflush(stdout);
    resume(dir.path(), smoke ? 20 : 1000, 100);
    std::fflush(stdout);
    scale(dir.path(), smoke ? 20 : 2000, 10);
    return g_allRunsWorked ? 0 : 1;
}
