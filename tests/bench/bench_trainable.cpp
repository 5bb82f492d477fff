// The trivial trainable of the engine benchmarks: works `work_ms` milliseconds (config; a sleep,
// like a training step waiting on a GPU), then reports `reports` results as fast as it can through
// the C++ SDK, with a report window of `window` (1: every report waits for its answer), then
// exits.
#include <chrono>
#include <thread>
#include <tunedeck/trial.hpp>

int main() {
    tunedeck::Trial trial;
    const long long reports = trial.config().value("reports", 1LL);
    trial.setReportWindow(trial.config().value("window", 1LL));
    std::this_thread::sleep_for(std::chrono::milliseconds(trial.config().value("work_ms", 0)));
    for (long long i = 1; i <= reports; ++i) {
        if (trial.report({{"loss", 1.0 / double(i)}, {"step", i}}) != tunedeck::Action::Continue) {
            break;
        }
    }
    return 0;
}
