// tunedeck-simulate: runs the deterministic simulation over a range of seeds, for searches longer
// than the test suite's (the loop issue asks for a million scenarios between releases).
//   tunedeck-simulate [--from N] [--count M] [--seed S] [--most-steps N] [--jobs J] [--quiet]
// Prints every seed that breaks an invariant (the invariant, the scenario, the trace's last
// lines) and, at the end, how many ran, how many failed and seeds per second. Exit 1 if any
// failed. --seed S runs one seed and prints its trace, for replaying a failure. --jobs J runs
// the seeds in J processes (one per core).
#include <sys/wait.h>
#include <unistd.h>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHashSeed>
#include <QStringList>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "core/heap_tuning.h"
#include "sim_world.h"

using namespace tunedeck::sim;

namespace {

void printFailure(const Scenario& scenario, const Outcome& outcome) {
    std::printf("seed %llu FAILED: %s\n  scenario: %s\n",
                static_cast<unsigned long long>(scenario.seed), qPrintable(outcome.violation),
                qPrintable(scenario.summary));
    for (const QString& line : outcome.trace) {
        std::printf("    %s\n", qPrintable(line));
    }
}

// What one process of the run counted.
struct Tally {
    std::uint64_t run = 0;
    std::uint64_t failed = 0;
    std::uint64_t trials = 0;
    std::uint64_t results = 0;
};

// Runs seeds from, from + step, ... below from + count; `label` prefixes progress lines.
Tally runSeeds(std::uint64_t from, std::uint64_t count, std::uint64_t step, bool one, bool quiet,
               std::int64_t mostSteps, const char* label) {
    QElapsedTimer clock;
    clock.start();
    Tally tally;
    WorldOptions options;
    if (one) {
        options.traceLines = 100000;
    }
    if (mostSteps > 0) {
        options.mostSteps = mostSteps;
    }
    for (std::uint64_t seed = from; seed < from + count; seed += step) {
        const Scenario scenario = makeScenario(seed);
        const Outcome outcome = simulate(scenario, options);
        ++tally.run;
        tally.trials += std::uint64_t(outcome.trials);
        tally.results += std::uint64_t(outcome.results);
        if (!outcome.ok) {
            ++tally.failed;
            printFailure(scenario, outcome);
            std::fflush(stdout);
        } else if (one) {
            std::printf("seed %llu ok: %s\n", static_cast<unsigned long long>(seed),
                        qPrintable(scenario.summary));
            for (const QString& line : outcome.trace) {
                std::printf("    %s\n", qPrintable(line));
            }
        }
        if (!quiet && tally.run % 10000 == 0) {
            std::printf("%s%llu seeds, %llu failed, %.0f seeds/s\n", label,
                        static_cast<unsigned long long>(tally.run),
                        static_cast<unsigned long long>(tally.failed),
                        double(tally.run) * 1000.0 / double(clock.elapsed() + 1));
            std::fflush(stdout);
        }
    }
    return tally;
}

// Runs the seeds in `jobs` processes (seed k in process k mod jobs) and adds up what they
// counted; each prints its own failures.
Tally runInProcesses(std::uint64_t from, std::uint64_t count, int jobs, bool quiet,
                     std::int64_t mostSteps) {
    std::fflush(stdout);
    std::vector<std::pair<pid_t, int>> children;
    for (int k = 0; k < jobs && std::uint64_t(k) < count; ++k) {
        int fds[2];
        if (pipe(fds) != 0) {
            std::perror("pipe");
            std::exit(2);
        }
        const pid_t pid = fork();
        if (pid < 0) {
            std::perror("fork");
            std::exit(2);
        }
        if (pid == 0) {
            close(fds[0]);
            const QByteArray label = QStringLiteral("[job %1] ").arg(k).toUtf8();
            const Tally tally =
                runSeeds(from + std::uint64_t(k), count - std::uint64_t(k), std::uint64_t(jobs),
                         false, quiet, mostSteps, label.constData());
            std::fflush(stdout);
            const bool written = write(fds[1], &tally, sizeof tally) == ssize_t(sizeof tally);
            _exit(written ? 0 : 2);
        }
        close(fds[1]);
        children.emplace_back(pid, fds[0]);
    }
    Tally total;
    for (const auto& [pid, fd] : children) {
        Tally tally;
        if (read(fd, &tally, sizeof tally) != ssize_t(sizeof tally)) {
            std::fprintf(stderr, "a simulation process (pid %d) died without its count\n",
                         int(pid));
            tally.failed = 1;
        }
        close(fd);
        waitpid(pid, nullptr, 0);
        total.run += tally.run;
        total.failed += tally.failed;
        total.trials += tally.trials;
        total.results += tally.results;
    }
    return total;
}

}  // namespace

int main(int argc, char** argv) {
    QHashSeed::setDeterministicGlobalSeed();
    tunedeck::keepFreedMemoryForReuse();
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    std::uint64_t from = 0;
    std::uint64_t count = 1000;
    bool one = false;
    bool quiet = false;
    std::int64_t mostSteps = 0;
    int jobs = 1;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--from") && i + 1 < args.size()) {
            from = args[++i].toULongLong();
        } else if (args[i] == QLatin1String("--count") && i + 1 < args.size()) {
            count = args[++i].toULongLong();
        } else if (args[i] == QLatin1String("--seed") && i + 1 < args.size()) {
            from = args[++i].toULongLong();
            count = 1;
            one = true;
        } else if (args[i] == QLatin1String("--most-steps") && i + 1 < args.size()) {
            mostSteps = args[++i].toLongLong();
        } else if (args[i] == QLatin1String("--jobs") && i + 1 < args.size()) {
            jobs = std::max(1, args[++i].toInt());
        } else if (args[i] == QLatin1String("--quiet")) {
            quiet = true;
        } else {
            std::fprintf(
                stderr,
                "usage: tunedeck-simulate [--from N] [--count M] [--seed S] [--most-steps N] "
                "[--jobs J] [--quiet]\n");
            return 2;
        }
    }
    QElapsedTimer clock;
    clock.start();
    const Tally tally = jobs > 1 ? runInProcesses(from, count, jobs, quiet, mostSteps)
                                 : runSeeds(from, count, 1, one, quiet, mostSteps, "");
    const double seconds = double(clock.elapsed()) / 1000.0;
    std::printf(
        "seeds %llu..%llu: %llu run, %llu failed, %llu trials, %llu results, %.1f s, "
        "%.0f seeds/s\n",
        static_cast<unsigned long long>(from), static_cast<unsigned long long>(from + count - 1),
        static_cast<unsigned long long>(tally.run), static_cast<unsigned long long>(tally.failed),
        static_cast<unsigned long long>(tally.trials),
        static_cast<unsigned long long>(tally.results), seconds,
        double(tally.run) / std::max(seconds, 1e-9));
    return tally.failed == 0 ? 0 : 1;
}
