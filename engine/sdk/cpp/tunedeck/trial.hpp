// Tunedeck's trial SDK for C++ and CUDA trainables: report each iteration's metrics to the
// engine and obey its answers (continue, stop, save a checkpoint, pause). Header-only, C++17,
// needs only the standard library, POSIX and nlohmann/json; speaks the trial channel of
// PROTOCOL.md. Without TUNEDECK_CHANNEL (run by hand) reports are printed and training goes on.
// Thread-safety: one Trial per process, used from one thread.
//
//     tunedeck::Trial trial;
//     trial.onSave([&](const std::string& dir) { model.save(dir + "/model.bin"); });
//     if (auto dir = trial.restoreDir()) model.load(*dir + "/model.bin");
//     const double lr = trial.config().value("lr", 0.01);
//     for (long long i = trial.iteration(); ; ++i) {
//         if (trial.report({{"loss", trainOneEpoch(lr)}}) != tunedeck::Action::Continue) break;
//     }
//     return 0;
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace tunedeck {

// What the trial does after a report.
enum class Action {
    Continue,  // train the next iteration
    Stop,      // the engine stopped the trial (`done` is already sent): return from main with 0
    Pause,     // the checkpoint is saved; exit with status 0, the trial resumes later
};

class Trial {
  public:
    using SaveFunction = std::function<void(const std::string& dir)>;

    Trial() {
        config_ = parseConfig(env("TUNEDECK_CONFIG"));
        const std::string restore = env("TUNEDECK_RESTORE");
        if (!restore.empty()) {
            restoreDir_ = restore;
        }
        trialDir_ = env("TUNEDECK_TRIAL_DIR");
        if (trialDir_.empty()) {
            trialDir_ = ".";
        }
        iteration_ = std::atoll(env("TUNEDECK_ITERATION").c_str());
        const std::string channel = env("TUNEDECK_CHANNEL");
        if (!channel.empty() && std::sscanf(channel.c_str(), "%d,%d", &readFd_, &writeFd_) == 2) {
            // Processes the trial starts must not hold its channel open.
            ::fcntl(readFd_, F_SETFD, FD_CLOEXEC);
            ::fcntl(writeFd_, F_SETFD, FD_CLOEXEC);
        } else {
            readFd_ = writeFd_ = -1;
        }
    }

    // A trial that reaches the end of its scope normally has finished: `done` is sent for it
    // unless it was stopped or paused. Unwinding from an exception sends nothing (a failure).
    ~Trial() {
        if (std::uncaught_exceptions() == 0) {
            try {
                done();
            } catch (...) {
                // The worker has gone; there is nobody to tell.
            }
        }
    }

    Trial(const Trial&) = delete;
    Trial& operator=(const Trial&) = delete;

    // The trial's hyperparameters (TUNEDECK_CONFIG); an empty object when run by hand.
    const nlohmann::json& config() const { return config_; }
    // The checkpoint folder to resume from; empty when starting fresh.
    const std::optional<std::string>& restoreDir() const { return restoreDir_; }
    // Training iterations done so far: the restored checkpoint's, plus one per report.
    long long iteration() const { return iteration_; }
    // The trial's own folder (log, scratch files); "." when run by hand.
    const std::string& trialDir() const { return trialDir_; }
    // Whether an engine is listening (false when run by hand).
    bool connected() const { return writeFd_ >= 0; }

    // Called when the engine asks for a checkpoint: writes the state into `dir` (it exists and
    // is empty). Without it such requests are declined.
    void onSave(SaveFunction save) { save_ = std::move(save); }

    // Reports one iteration's metrics (numbers, strings, booleans) and waits for the engine's
    // decision. `checkpointDir` names a folder the trial has just written a checkpoint into.
    // A true "done" among the metrics finishes the trial: the answer is Action::Stop.
    Action report(const nlohmann::json& metrics, std::optional<std::string> checkpointDir = {}) {
        nlohmann::json clean = finite(metrics);
        const auto given = clean.find("training_iteration");
        iteration_ = (given != clean.end() && given->is_number_integer()) ? given->get<long long>()
                                                                          : iteration_ + 1;
        if (!connected()) {
            std::printf("tunedeck report: %s\n", clean.dump().c_str());
            std::fflush(stdout);
            return Action::Continue;
        }
        nlohmann::json message = {{"type", "report"}, {"metrics", std::move(clean)}};
        if (checkpointDir) {
            message["checkpoint"] = absolute(*checkpointDir);
        }
        send(message);
        return followAnswers();
    }

    // A line for the trial's log stream in the engine (stderr when run by hand).
    void log(const std::string& message) {
        if (connected()) {
            send({{"type", "log"}, {"message", message}});
        } else {
            std::fprintf(stderr, "tunedeck log: %s\n", message.c_str());
        }
    }

    // Tells the engine the trial is alive during a long iteration.
    void heartbeat() {
        if (connected()) {
            send({{"type", "heartbeat"}});
        }
    }

    // Tells the engine the trial finished on its own (also sent by the destructor).
    void done() {
        if (connected() && !ended_) {
            ended_ = true;
            send({{"type", "done"}});
        }
    }

  private:
    static std::string env(const char* name) {
        const char* value = std::getenv(name);
        return value ? value : "";
    }

    static nlohmann::json parseConfig(const std::string& text) {
        if (text.empty()) {
            return nlohmann::json::object();
        }
        nlohmann::json config = nlohmann::json::parse(text, nullptr, false);
        if (config.is_discarded() || !config.is_object()) {
            throw std::runtime_error("tunedeck: TUNEDECK_CONFIG is not a JSON object");
        }
        return config;
    }

    // JSON has no literal for NaN and infinities: PROTOCOL.md sends them as strings.
    static nlohmann::json finite(const nlohmann::json& value) {
        if (value.is_number_float()) {
            const double x = value.get<double>();
            if (std::isnan(x)) {
                return "NaN";
            }
            if (std::isinf(x)) {
                return x > 0 ? "Infinity" : "-Infinity";
            }
            return value;
        }
        if (value.is_structured()) {
            nlohmann::json copy = value;
            for (auto& item : copy) {
                item = finite(item);
            }
            return copy;
        }
        return value;
    }

    static std::string text(const nlohmann::json& object, const char* key) {
        const auto field = object.find(key);
        return field != object.end() && field->is_string() ? field->get<std::string>() : "";
    }

    static std::string absolute(const std::string& path) {
        if (!path.empty() && path.front() == '/') {
            return path;
        }
        char* cwd = ::getcwd(nullptr, 0);
        std::string result = cwd ? std::string(cwd) + "/" + path : path;
        std::free(cwd);
        return result;
    }

    Action followAnswers() {
        for (;;) {
            const nlohmann::json answer = receive();
            const std::string action = text(answer, "action");
            if (action == "continue") {
                return Action::Continue;
            }
            if (action == "stop") {
                done();
                return Action::Stop;
            }
            if (action == "save" || action == "pause") {
                const std::string path = text(answer, "path");
                if (save_ && !path.empty()) {
                    save_(path);
                    send({{"type", "checkpoint"}, {"path", path}});
                } else {
                    send({{"type", "checkpoint"}, {"path", nullptr}});  // cannot save on request
                }
                if (action == "pause") {
                    ended_ = true;  // a paused trial exits without `done`
                    return Action::Pause;
                }
                continue;  // the answer to the checkpoint follows
            }
            throw std::runtime_error("tunedeck: unknown answer from the engine: " + answer.dump());
        }
    }

    void send(const nlohmann::json& message) {
        const std::string line =
            message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        std::size_t written = 0;
        while (written < line.size()) {
            const ssize_t n = ::write(writeFd_, line.data() + written, line.size() - written);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                throw std::runtime_error("tunedeck: the trial channel is closed");
            }
            written += static_cast<std::size_t>(n);
        }
    }

    nlohmann::json receive() {
        for (;;) {
            const std::size_t newline = buffer_.find('\n');
            if (newline != std::string::npos) {
                const std::string line = buffer_.substr(0, newline);
                buffer_.erase(0, newline + 1);
                nlohmann::json answer = nlohmann::json::parse(line, nullptr, false);
                if (answer.is_discarded() || !answer.is_object()) {
                    throw std::runtime_error(
                        "tunedeck: the engine sent an answer that is not "
                        "a JSON object: " +
                        line);
                }
                return answer;
            }
            char chunk[4096];
            const ssize_t n = ::read(readFd_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                throw std::runtime_error("tunedeck: the worker closed the trial channel");
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    nlohmann::json config_;
    std::optional<std::string> restoreDir_;
    std::string trialDir_;
    long long iteration_ = 0;
    int readFd_ = -1;
    int writeFd_ = -1;
    bool ended_ = false;
    SaveFunction save_;
    std::string buffer_;
};

}  // namespace tunedeck
