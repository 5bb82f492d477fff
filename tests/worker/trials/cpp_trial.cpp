// A C++ trial built with the header-only SDK: counts steps, saves its step on request, resumes
// from a checkpoint, reports a NaN to check it travels as a string. Config: steps, window (the
// report window it asks for; 1 by default), ask (true: it asks the engine for `depth`, an int of
// 1 to 8, define-by-run, and reports it).
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
    long long depth = 0;
    if (trial.config().value("ask", false)) {
        const nlohmann::json distribution = {
            {"type", "int"}, {"low", 1}, {"high", 8}, {"step", 1}, {"log", false}};
        depth = trial.suggest("depth", distribution).get<long long>();
        if (trial.suggest("depth", distribution).get<long long>() != depth) {
            return 3;  // asked again: the same value
        }
    }
    while (step < steps) {
        ++step;
        const nlohmann::json metrics = {{"step", step},
                                        {"loss", 1.0 / static_cast<double>(step)},
                                        {"not_a_number", std::nan("")},
                                        {"iteration_seen", trial.iteration()},
                                        {"depth", depth}};
        const tunedeck::Action action = trial.report(metrics);
        if (action != tunedeck::Action::Continue) {
            return 0;  // stopped (done already sent) or paused (checkpoint saved)
        }
    }
    return 0;  // the destructor sends done
}
