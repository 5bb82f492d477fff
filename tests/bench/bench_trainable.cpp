// The trivial trainable of the engine benchmarks: reports `reports` results (config), as fast as
// it can, through the C++ SDK, then exits.
#include <tunedeck/trial.hpp>

int main() {
    tunedeck::Trial trial;
    const long long reports = trial.config().value("reports", 1LL);
    for (long long i = 1; i <= reports; ++i) {
        if (trial.report({{"loss", 1.0 / double(i)}, {"step", i}}) != tunedeck::Action::Continue) {
            break;
        }
    }
    return 0;
}
