// tunedeck-simulate: runs the deterministic simulation over a range of seeds, for searches longer
// than the test suite's (the loop issue asks for a million scenarios between releases).
//   tunedeck-simulate [--from N] [--count M] [--seed S] [--most-steps N] [--quiet]
// Prints every seed that breaks an invariant (the invariant, the scenario, the trace's last
// lines) and, at the end, how many ran, how many failed and seeds per second. Exit 1 if any
// failed. --seed S runs one seed and prints its trace, for replaying a failure.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHashSeed>
#include <QStringList>
#include <cstdio>

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

}  // namespace

int main(int argc, char** argv) {
    QHashSeed::setDeterministicGlobalSeed();
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    std::uint64_t from = 0;
    std::uint64_t count = 1000;
    bool one = false;
    bool quiet = false;
    std::int64_t mostSteps = 0;
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
        } else if (args[i] == QLatin1String("--quiet")) {
            quiet = true;
        } else {
            std::fprintf(
                stderr,
                "usage: tunedeck-simulate [--from N] [--count M] [--seed S] [--most-steps N] "
                "[--quiet]\n");
            return 2;
        }
    }
    QElapsedTimer clock;
    clock.start();
    std::uint64_t failed = 0;
    std::uint64_t trials = 0;
    std::uint64_t results = 0;
    WorldOptions options;
    if (one) {
        options.traceLines = 100000;
    }
    if (mostSteps > 0) {
        options.mostSteps = mostSteps;
    }
    for (std::uint64_t seed = from; seed < from + count; ++seed) {
        const Scenario scenario = makeScenario(seed);
        const Outcome outcome = simulate(scenario, options);
        trials += std::uint64_t(outcome.trials);
        results += std::uint64_t(outcome.results);
        if (!outcome.ok) {
            ++failed;
            printFailure(scenario, outcome);
        } else if (one) {
            std::printf("seed %llu ok: %s\n", static_cast<unsigned long long>(seed),
                        qPrintable(scenario.summary));
            for (const QString& line : outcome.trace) {
                std::printf("    %s\n", qPrintable(line));
            }
        }
        if (!quiet && (seed - from + 1) % 10000 == 0) {
            std::printf("%llu seeds, %llu failed, %.0f seeds/s\n",
                        static_cast<unsigned long long>(seed - from + 1),
                        static_cast<unsigned long long>(failed),
                        double(seed - from + 1) * 1000.0 / double(clock.elapsed() + 1));
            std::fflush(stdout);
        }
    }
    const double seconds = double(clock.elapsed()) / 1000.0;
    std::printf(
        "seeds %llu..%llu: %llu run, %llu failed, %llu trials, %llu results, %.1f s, "
        "%.0f seeds/s\n",
        static_cast<unsigned long long>(from), static_cast<unsigned long long>(from + count - 1),
        static_cast<unsigned long long>(count), static_cast<unsigned long long>(failed),
        static_cast<unsigned long long>(trials), static_cast<unsigned long long>(results), seconds,
        double(count) / std::max(seconds, 1e-9));
    return failed == 0 ? 0 : 1;
}
