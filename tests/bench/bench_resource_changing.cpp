// Resource-changing against plain ASHA on the same budget (issue 20): the time to reach the same
// best value, in one run. Rounds alternate the two (and which goes first), because the machine is
// shared and noisy; the figures are medians over the rounds and their ratio.
//   resource_changing: the shipped resources/examples/ddp/resource_changing.yaml (trials start as
//                      1 worker of 0.5 CPU and grow into free slots over ASHA);
//   asha:              the same file with only the scheduler replaced by plain asha with the same
//                      asha options (same grid, stop, max_concurrent_trials, seed); every trial
//                      keeps the experiment's `workers` (1). Such a trial is no gang, so the
//                      engine sets no torch.distributed environment; train.py needs one, so this
//                      side's command starts with `env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1
//                      MASTER_PORT=0` (a world of one; port 0: the store takes a free port).
// Both run `tunedeck-engine run FILE --results DIR --events FILE --quiet`. From each run's event
// stream: the wall time from experiment_started to experiment_finished, the final best val_loss,
// and the time from experiment_started at which the best-so-far val_loss first reached the
// round's common target, the worse of the two runs' final bests (so both reach it).
// A trial with more workers trains on a bigger effective batch (DDP averages the gradients over
// the ranks), so its learning curve per step differs too: the figure is time-to-quality of the
// whole policy (growing, including its pause/restart costs), not a speed-up of the same steps.
// Built on request only; no figure is asserted.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "median.h"

namespace {

const QString kBin = QStringLiteral(TUNEDECK_BIN_DIR);
const QString kExampleDir = QStringLiteral(TUNEDECK_DDP_EXAMPLE_DIR);
constexpr int kRunTimeoutMs = 600000;  // a run of ten minutes is broken, not slow

struct Options {
    int rounds = 3;
    QString sleep;  // train.py --sleep; empty: the example's own
    QString grid;   // the lr grid, e.g. "0.05, 0.2"; empty: the example's own
    QString python = QStringLiteral(TUNEDECK_SYSTEM_PYTHON3);
};

// What one engine run gives, in seconds from its experiment_started event.
struct Run {
    double wall = 0;
    double finalBest = 0;
    std::vector<std::pair<double, double>> bestSoFar;  // (time, best val_loss) at each improvement
    int resourceChanges = 0;
    int trials = 0;

    double timeToReach(double target) const {
        for (const auto& [time, best] : bestSoFar) {
            if (best <= target) {
                return time;
            }
        }
        return -1;
    }
};

QString readText(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", qPrintable(path));
    }
    return QString::fromUtf8(file.readAll());
}

// The shipped example, runnable from another folder, shortened as asked on the command line.
QString exampleText(const Options& options) {
    QString text = readText(kExampleDir + "/resource_changing.yaml");
    text.replace(QStringLiteral("python3 train.py"),
                 QStringLiteral("python3 ") + kExampleDir + "/train.py");
    if (!options.sleep.isEmpty()) {
        text.replace(QRegularExpression(QStringLiteral("--sleep [0-9.]+")),
                     QStringLiteral("--sleep ") + options.sleep);
    }
    if (!options.grid.isEmpty()) {
        text.replace(QRegularExpression(QStringLiteral("lr: \\{grid: \\[[^]]*\\]\\}")),
                     QStringLiteral("lr: {grid: [%1]}").arg(options.grid));
    }
    return text;
}

// The same text with only the scheduler changed: resource_changing's own keys (base, policy,
// min_iterations) dropped, the type made the base's (asha); the asha options stay as they are.
// The trainable gets a world of one by hand (a trial of one worker under plain asha is no gang).
QString plainAshaText(QString text) {
    text.replace(QStringLiteral("command: python3 "),
                 QStringLiteral("command: env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 "
                                "MASTER_PORT=0 python3 "));
    QStringList out;
    bool inScheduler = false;
    for (const QString& line : text.split('\n')) {
        if (!line.startsWith(' ')) {
            inScheduler = line.startsWith(QLatin1String("scheduler:"));
        }
        const QString key = line.trimmed().section(':', 0, 0);
        if (inScheduler && (key == QLatin1String("base") || key == QLatin1String("policy") ||
                            key == QLatin1String("min_iterations"))) {
            continue;
        }
        if (inScheduler && key == QLatin1String("type")) {
            out << line.section(':', 0, 0) + ": asha";
            continue;
        }
        out << line;
    }
    return out.join('\n');
}

QString tail(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll().right(1500))
                                          : QString();
}

std::optional<Run> readEvents(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    Run run;
    std::optional<double> started, finished;
    for (const QByteArray& line : file.readAll().split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        const QString type = e.value("type").toString();
        const double time = e.value("time").toDouble();
        if (type == QLatin1String("experiment_started")) {
            started = time;
        } else if (type == QLatin1String("experiment_finished")) {
            finished = time;
        } else if (type == QLatin1String("trial_resources")) {
            ++run.resourceChanges;
        } else if (type == QLatin1String("trial_added")) {
            ++run.trials;
        } else if (type == QLatin1String("result") && started) {
            const QJsonValue v = e.value("result").toObject().value("val_loss");
            if (v.isDouble() && (run.bestSoFar.empty() || v.toDouble() < run.finalBest)) {
                run.finalBest = v.toDouble();
                run.bestSoFar.emplace_back(time - *started, run.finalBest);
            }
        }
    }
    if (!started || !finished || run.bestSoFar.empty()) {
        std::printf("   %s lacks experiment_started, experiment_finished or results\n",
                    qPrintable(path));
        return std::nullopt;
    }
    run.wall = *finished - *started;
    return run;
}

std::optional<Run> runEngine(const Options& options, const QString& dir, const QString& name,
                             const QString& yamlText) {
    const QString yaml = dir + '/' + name + ".yaml";
    QFile file(yaml);
    if (!file.open(QIODevice::WriteOnly)) {
        qFatal("cannot write %s", qPrintable(yaml));
    }
    file.write(yamlText.toUtf8());
    file.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"),
               QFileInfo(options.python).absolutePath() + ':' + env.value(QStringLiteral("PATH")));
    for (const char* var : {"PYTHONPATH", "TUNEDECK_WORKER", "TUNEDECK_PYTHON_SDK",
                            "TUNEDECK_CHANNEL", "TUNEDECK_RESULTS"}) {
        env.remove(QString::fromLatin1(var));
    }
    const QString events = dir + '/' + name + "-events.jsonl";
    const QString log = dir + '/' + name + ".log";
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardOutputFile(log);
    process.start(kBin + "/tunedeck-engine",
                  {"run", yaml, "--results", dir + '/' + name, "--events", events, "--quiet"});
    if (!process.waitForFinished(kRunTimeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        std::printf("   %s did not end within %d s\n", qPrintable(name), kRunTimeoutMs / 1000);
        return std::nullopt;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        std::printf("   %s failed (exit %d); its output ends with:\n%s\n", qPrintable(name),
                    process.exitCode(), qPrintable(tail(log)));
        return std::nullopt;
    }
    return readEvents(events);
}

Options parseOptions(const QStringList& args) {
    Options options;
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--rounds")) {
            options.rounds = std::max(1, args[++i].toInt());
        } else if (args[i] == QLatin1String("--sleep")) {
            options.sleep = QString::number(args[++i].toDouble());
        } else if (args[i] == QLatin1String("--grid")) {
            options.grid = args[++i];
        } else if (args[i] == QLatin1String("--python")) {
            options.python = QFileInfo(args[++i]).absoluteFilePath();
        }
    }
    return options;
}

struct Round {
    Run changing, asha;
    double target = 0;
};

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app.arguments());
    const QString changingText = exampleText(options);
    const QString ashaText = plainAshaText(changingText);
    QTemporaryDir dir;
    std::printf(
        "Resource-changing vs plain ASHA: resources/examples/ddp/resource_changing.yaml "
        "(sleep %s, grid %s), %d rounds alternating, python %s\n"
        "Times in seconds from experiment_started; target = the worse of the round's two final "
        "best val_loss.\nMore workers = bigger effective batch (DDP averages over ranks): this is "
        "time-to-quality of the policy, not the same steps run faster.\n\n"
        "asha side's trainable and scheduler:\n",
        options.sleep.isEmpty() ? "as shipped" : qPrintable(options.sleep),
        options.grid.isEmpty() ? "as shipped" : qPrintable(options.grid), options.rounds,
        qPrintable(options.python));
    bool inScheduler = false;
    for (const QString& line : ashaText.split('\n')) {
        if (!line.startsWith(' ')) {
            inScheduler = line.startsWith(QLatin1String("scheduler:"));
        }
        if (inScheduler || line.trimmed().startsWith(QLatin1String("command:"))) {
            std::printf("  %s\n", qPrintable(line));
        }
    }
    std::printf("\n");
    std::fflush(stdout);
    std::vector<Round> rounds;
    bool allWorked = true;
    for (int round = 1; round <= options.rounds; ++round) {
        std::optional<Run> changing, asha;
        for (int turn = 0; turn < 2; ++turn) {
            const bool changingTurn = (turn == 0) == (round % 2 == 1);  // odd: changing first
            if (changingTurn) {
                changing = runEngine(options, dir.path(), QStringLiteral("rc-%1").arg(round),
                                     changingText);
            } else {
                asha =
                    runEngine(options, dir.path(), QStringLiteral("asha-%1").arg(round), ashaText);
            }
        }
        if (!changing || !asha) {
            std::printf("round %d: no figure\n", round);
            allWorked = false;
            continue;
        }
        Round r{*changing, *asha, std::max(changing->finalBest, asha->finalBest)};
        std::printf(
            "round %d (%s first) target %.4f\n"
            "  resource_changing: wall %6.1f  best %.4f (at %6.1f)  reached target at %6.1f  "
            "trial_resources %d  trials %d\n"
            "  asha:              wall %6.1f  best %.4f (at %6.1f)  reached target at %6.1f  "
            "trials %d\n",
            round, round % 2 == 1 ? "resource_changing" : "asha", r.target, r.changing.wall,
            r.changing.finalBest, r.changing.bestSoFar.back().first,
            r.changing.timeToReach(r.target), r.changing.resourceChanges, r.changing.trials,
            r.asha.wall, r.asha.finalBest, r.asha.bestSoFar.back().first,
            r.asha.timeToReach(r.target), r.asha.trials);
        std::fflush(stdout);
        rounds.push_back(r);
    }
    if (rounds.empty()) {
        return 1;
    }
    const auto column = [&rounds](auto field) {
        std::vector<double> values;
        for (const Round& r : rounds) {
            values.push_back(field(r));
        }
        return median(values);
    };
    const auto row = [](const char* name, double c, double a, const char* format) {
        std::printf("%-26s ", name);
        std::printf(format, c);
        std::printf(" ");
        std::printf(format, a);
        std::printf(" %8.2fx\n", a != 0 ? c / a : 0.0);
    };
    std::printf("\nMedians over %zu rounds %22s %10s %9s\n", rounds.size(), "resource_changing",
                "asha", "ratio");
    row("time to common target (s)",
        column([](const Round& r) { return r.changing.timeToReach(r.target); }),
        column([](const Round& r) { return r.asha.timeToReach(r.target); }), "%17.1f");
    row("time to own final best (s)",
        column([](const Round& r) { return r.changing.bestSoFar.back().first; }),
        column([](const Round& r) { return r.asha.bestSoFar.back().first; }), "%17.1f");
    row("wall time to finish (s)", column([](const Round& r) { return r.changing.wall; }),
        column([](const Round& r) { return r.asha.wall; }), "%17.1f");
    row("final best val_loss", column([](const Round& r) { return r.changing.finalBest; }),
        column([](const Round& r) { return r.asha.finalBest; }), "%17.4f");
    std::vector<double> ratios;
    for (const Round& r : rounds) {
        const double a = r.asha.timeToReach(r.target);
        ratios.push_back(a > 0 ? r.changing.timeToReach(r.target) / a : 0.0);
    }
    std::printf("%-26s %37.2fx\n", "median of per-round ratios", median(ratios));
    std::printf("trial_resources events per resource_changing run:");
    for (const Round& r : rounds) {
        std::printf(" %d", r.changing.resourceChanges);
    }
    std::printf("\n");
    return allWorked ? 0 : 1;
}
