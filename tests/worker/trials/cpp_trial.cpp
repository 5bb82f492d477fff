// A C++ trial built with the header-only SDK: counts steps, saves its step on request, resumes
// from a checkpoint, reports a NaN to check it travels as a string. Config: steps, window (the
// report window it asks for; 1 by default).
#include <cmath>
#include <fstream>
#include <string>
#include <tunedeck/trial.hpp>

int main() {
    tunedeck::Trial trial;
    long long step = 0;
    if (const auto& restore = trial.restoreDir()) {
        std::ifstream(*restore + "/step.txt") >> step;
    }
    trial.setReportWindow(trial.config().value("window", 1LL));
    trial.onSave([&](const std::string& dir) { std::ofstream(dir + "/step.txt") << step; });
    trial.log("cpp trial starts at step " + std::to_string(step));
    const long long steps = trial.config().value("steps", 1000000LL);
    while (step < steps) {
        ++step;
        const nlohmann::json metrics = {{"step", step},
                                        {"loss", 1.0 / static_cast<double>(step)},
                                        {"not_a_number", std::nan("")},
                                        {"iteration_seen", trial.iteration()}};
        const tunedeck::Action action = trial.report(metrics);
        if (action != tunedeck::Action::Continue) {
            return 0;  // stopped (done already sent) or paused (checkpoint saved)
        }
    }
    return 0;  // the destructor sends done
}
