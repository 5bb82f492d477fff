// Gang start overhead (issue 20): the time from a gang trial's placement to all of its ranks
// being ready (process group joined, first barrier passed), against starting the same N
// processes by hand with torchrun on this machine, in one run. Rounds alternate the two (and which
// goes first), because the machine is shared and noisy; the figures are medians over the rounds.
//   engine:   `tunedeck-engine run` of one trial with resources_per_trial {cpu: 1, workers: N},
//             from the trial's RUNNING event (placement) to the latest rank's "ready" stamp;
//   torchrun: `python3 -m torch.distributed.run --standalone --nnodes 1 --nproc_per_node N`, from
//             just before it is launched to the latest rank's "ready" stamp.
// Both run tests/bench/gang_ready.py with the same python3 (the system's, where torch is). Built on
// request only; no figure is asserted.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <optional>
#include <vector>

#include "median.h"

namespace {

const QString kBin = QStringLiteral(TUNEDECK_BIN_DIR);
const QString kBenchDir = QStringLiteral(TUNEDECK_BENCH_SOURCE_DIR);
constexpr int kRunTimeoutMs = 180000;  // a start that takes minutes is broken, not slow

// Phases each rank stamps (gang_ready.py), in order.
enum Phase { kScriptStart, kImported, kJoined, kReady, kPhases };
const std::array<const char*, kPhases> kPhaseNames = {
    "latest rank's script started", "  ... torch imported", "  ... process group joined",
    "  ... barrier passed (ready)"};

struct Options {
    int workers = 2;
    double cpuPerWorker = 0;  // resources_per_trial.cpu; 0: 1, or a share when N exceeds the cores
    int rounds = 7;
    QString python = QStringLiteral(TUNEDECK_SYSTEM_PYTHON3);
};

// One start of the gang: every phase of the latest rank, in seconds after the start's origin
// (placement for the engine, the launch for torchrun), and the longest import of any rank.
struct GangStart {
    std::array<double, kPhases> latest{};
    double slowestImport = 0;
    double launchToOrigin = 0;  // engine only: the engine's own start up to the placement
};

double wallClockNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

QString tail(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray all = file.readAll();
    return QString::fromUtf8(all.right(1500));
}

// The stamps of every rank, relative to `origin`; nothing when a rank did not write its file.
std::optional<GangStart> readStamps(const QString& outDir, int workers, double origin) {
    GangStart start;
    for (int rank = 0; rank < workers; ++rank) {
        QFile file(outDir + QStringLiteral("/ready-rank%1.txt").arg(rank));
        if (!file.open(QIODevice::ReadOnly)) {
            std::printf("   rank %d wrote no stamps (%s)\n", rank, qPrintable(file.fileName()));
            return std::nullopt;
        }
        const QStringList fields = QString::fromUtf8(file.readAll()).split(' ', Qt::SkipEmptyParts);
        if (fields.size() != kPhases) {
            std::printf("   rank %d wrote %lld stamps, not %d\n", rank, qlonglong(fields.size()),
                        int(kPhases));
            return std::nullopt;
        }
        std::array<double, kPhases> stamp{};
        for (int phase = 0; phase < kPhases; ++phase) {
            stamp[phase] = fields[phase].toDouble() - origin;
            start.latest[phase] =
                rank == 0 ? stamp[phase] : std::max(start.latest[phase], stamp[phase]);
        }
        start.slowestImport = std::max(start.slowestImport, stamp[kImported] - stamp[kScriptStart]);
    }
    return start;
}

// Runs `program` to its end with its output in `logPath`; whether it exited with 0.
bool runToEnd(const QString& program, const QStringList& args, const QProcessEnvironment& env,
              const QString& logPath, double* launchedAt) {
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardOutputFile(logPath);
    *launchedAt = wallClockNow();
    process.start(program, args);
    if (!process.waitForFinished(kRunTimeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        std::printf("   %s did not end within %d s\n", qPrintable(program), kRunTimeoutMs / 1000);
        return false;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        std::printf("   %s failed (exit %d); its output ends with:\n%s\n", qPrintable(program),
                    process.exitCode(), qPrintable(tail(logPath)));
        return false;
    }
    return true;
}

// The environment of both sides: the chosen python3 first on PATH, no SDK or engine settings
// inherited from the caller.
QProcessEnvironment baseEnvironment(const Options& options) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString pythonDir = QFileInfo(options.python).absolutePath();
    env.insert(QStringLiteral("PATH"), pythonDir + ':' + env.value(QStringLiteral("PATH")));
    for (const char* name : {"PYTHONPATH", "TUNEDECK_WORKER", "TUNEDECK_PYTHON_SDK",
                             "TUNEDECK_CHANNEL", "TUNEDECK_RESULTS"}) {
        env.remove(QString::fromLatin1(name));
    }
    return env;
}

// The time of the trial's first RUNNING status event (its placement), or nothing.
std::optional<double> runningTime(const QString& eventsPath) {
    QFile file(eventsPath);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    for (const QByteArray& line : file.readAll().split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (e.value("type").toString() == QLatin1String("trial_status") &&
            e.value("status").toString() == QLatin1String("RUNNING")) {
            return e.value("time").toDouble();
        }
    }
    return std::nullopt;
}

std::optional<GangStart> startWithEngine(const Options& options, const QString& dir, int round) {
    const QString name = QStringLiteral("gang-start-%1").arg(round);
    const QString outDir = dir + '/' + name + "-engine";
    QDir().mkpath(outDir);
    const QString yaml = dir + '/' + name + ".yaml";
    QFile file(yaml);
    if (!file.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(yaml));
    }
    file.write(QStringLiteral("name: %1\n"
                              "trainable:\n  command: %2 %3/gang_ready.py %4\n"
                              "search_space:\n  x: 1\n"
                              "resources_per_trial: {cpu: %6, workers: %5}\n"
                              "metric: ready\nmode: max\nnum_samples: 1\n")
                   .arg(name, options.python, kBenchDir, outDir)
                   .arg(options.workers)
                   .arg(options.cpuPerWorker)
                   .toUtf8());
    file.close();
    const QString events = dir + '/' + name + "-events.jsonl";
    double launched = 0;
    const bool ran =
        runToEnd(kBin + "/tunedeck-engine",
                 {"run", yaml, "--quiet", "--results", dir + "/results", "--events", events},
                 baseEnvironment(options), dir + '/' + name + "-engine.log", &launched);
    const std::optional<double> placed = runningTime(events);
    if (!ran || !placed) {
        if (ran) {
            std::printf("   no RUNNING event in %s\n", qPrintable(events));
        }
        return std::nullopt;
    }
    std::optional<GangStart> start = readStamps(outDir, options.workers, *placed);
    if (start) {
        start->launchToOrigin = *placed - launched;
    }
    return start;
}

std::optional<GangStart> startWithTorchrun(const Options& options, const QString& dir, int round) {
    const QString outDir = dir + QStringLiteral("/gang-start-%1-torchrun").arg(round);
    QDir().mkpath(outDir);
    QProcessEnvironment env = baseEnvironment(options);
    // The SDK is importable but not connected: tunedeck.report prints.
    env.insert(QStringLiteral("PYTHONPATH"), kBin + "/../share/tunedeck/sdk/python");
    double launched = 0;
    const bool ran = runToEnd(
        options.python,
        {kBenchDir + "/torchrun_launch.py", "--standalone", "--nnodes", "1", "--nproc_per_node",
         QString::number(options.workers), kBenchDir + "/gang_ready.py", outDir},
        env, outDir + ".log", &launched);
    return ran ? readStamps(outDir, options.workers, launched) : std::nullopt;
}

void printRound(int round, bool byEngine, const GangStart& s) {
    std::printf(
        "round %d %-9s ready %6.3f s (script started %6.3f, torch imported %6.3f, "
        "group joined %6.3f; slowest import %6.3f)",
        round, byEngine ? "engine" : "torchrun", s.latest[kReady], s.latest[kScriptStart],
        s.latest[kImported], s.latest[kJoined], s.slowestImport);
    if (byEngine) {
        std::printf(" [engine start to placement %5.3f]", s.launchToOrigin);
    }
    std::printf("\n");
    std::fflush(stdout);
}

Options parseOptions(const QStringList& args) {
    Options options;
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--workers")) {
            options.workers = std::max(2, args[++i].toInt());
        } else if (args[i] == QLatin1String("--rounds")) {
            options.rounds = std::max(1, args[++i].toInt());
        } else if (args[i] == QLatin1String("--cpu")) {
            options.cpuPerWorker = args[++i].toDouble();
        } else if (args[i] == QLatin1String("--python")) {
            options.python = QFileInfo(args[++i]).absoluteFilePath();
        }
    }
    if (options.cpuPerWorker <= 0) {
        // A gang never fits if it asks for more CPUs than this machine has (refused at validate).
        const int cores = std::max(1, QThread::idealThreadCount());
        options.cpuPerWorker = std::min(1.0, double(cores) / options.workers);
    }
    return options;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app.arguments());
    QTemporaryDir dir;
    std::printf(
        "Gang start: %d ranks (gloo, CPU; engine cpu %.2f per rank), %d rounds alternating "
        "engine and torchrun, python %s (%s)\n"
        "Each figure is seconds from the origin (engine: the trial's RUNNING event, i.e. "
        "placement; torchrun: its launch) to the latest rank's stamp.\n\n",
        options.workers, options.cpuPerWorker, options.rounds, qPrintable(options.python),
        qPrintable(QSysInfo::prettyProductName()));
    std::fflush(stdout);
    std::vector<GangStart> engine, torchrun;
    bool allWorked = true;
    for (int round = 1; round <= options.rounds; ++round) {
        for (int turn = 0; turn < 2; ++turn) {
            const bool engineTurn = (turn == 0) == (round % 2 == 1);  // odd rounds: engine first
            const std::optional<GangStart> s = engineTurn
                                                   ? startWithEngine(options, dir.path(), round)
                                                   : startWithTorchrun(options, dir.path(), round);
            if (!s) {
                std::printf("round %d %s: no figure\n", round, engineTurn ? "engine" : "torchrun");
                allWorked = false;
                continue;
            }
            printRound(round, engineTurn, *s);
            (engineTurn ? engine : torchrun).push_back(*s);
        }
    }
    if (engine.empty() || torchrun.empty()) {
        return 1;
    }
    const auto column = [](const std::vector<GangStart>& runs, auto field) {
        std::vector<double> values;
        for (const GangStart& s : runs) {
            values.push_back(field(s));
        }
        return median(values);
    };
    std::printf(
        "\nMedians (engine over %zu rounds, torchrun over %zu), seconds from the origin:\n"
        "%-34s %10s %10s %8s %10s\n",
        engine.size(), torchrun.size(), "", "engine", "torchrun", "ratio", "diff ms");
    for (int phase = 0; phase < kPhases; ++phase) {
        const double e = column(engine, [phase](const GangStart& s) { return s.latest[phase]; });
        const double t = column(torchrun, [phase](const GangStart& s) { return s.latest[phase]; });
        std::printf("%-34s %10.3f %10.3f %7.2fx %+10.0f\n", kPhaseNames[phase], e, t,
                    t > 0 ? e / t : 0.0, (e - t) * 1000);
    }
    const double ei = column(engine, [](const GangStart& s) { return s.slowestImport; });
    const double ti = column(torchrun, [](const GangStart& s) { return s.slowestImport; });
    std::printf("%-34s %10.3f %10.3f %7.2fx %+10.0f\n", "slowest rank's torch import", ei, ti,
                ti > 0 ? ei / ti : 0.0, (ei - ti) * 1000);
    // The engine's own start (agent, SQLite, parsing) is outside the figure; with it:
    const double el =
        column(engine, [](const GangStart& s) { return s.launchToOrigin + s.latest[kReady]; });
    const double tr = column(torchrun, [](const GangStart& s) { return s.latest[kReady]; });
    std::printf("%-34s %10.3f %10.3f %7.2fx %+10.0f\n", "ready, engine's launch as origin", el, tr,
                tr > 0 ? el / tr : 0.0, (el - tr) * 1000);
    return allWorked ? 0 : 1;
}
