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
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
        grantedWindow_ = std::max(1LL, std::atoll(env("TUNEDECK_REPORT_WINDOW").c_str()));
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

    // Lets up to `reports` reports be on their way before report() waits for an answer
    // (PROTOCOL.md, "Report windows"): fast iterations then cost no round trip each, and the
    // engine's decisions reach the trial up to `reports - 1` iterations late. The engine grants
    // at most TUNEDECK_REPORT_WINDOW (1, no window, where it may ask for a checkpoint or pause
    // at any report). 1, the default, waits for every answer.
    void setReportWindow(long long reports) { askedWindow_ = std::max(1LL, reports); }
    // The window in force: the smaller of the one asked for and the one the engine grants.
    long long reportWindow() const { return std::min(askedWindow_, grantedWindow_); }

    // Define-by-run (Optuna's trial.suggest_*; PROTOCOL.md, `suggest`): asks the engine's
    // searcher for the value of the parameter `name` of `distribution`, e.g.
    // {{"type", "float"}, {"low", 1e-4}, {"high", 0.1}, {"log", true}}, and waits for it; the
    // parameter joins the trial's config. Asking again for a name gives its value. A request the
    // engine refuses throws std::invalid_argument with its reason. Run by hand it returns
    // nullptr (no engine to ask): give the value a default. Not while windowed reports await
    // their answers.
    nlohmann::json suggest(const std::string& name, const nlohmann::json& distribution) {
        if (!connected()) {
            return nullptr;
        }
        if (unanswered_ > 0) {
            throw std::logic_error("tunedeck: suggest() while windowed reports await answers");
        }
        writeLine(
            nlohmann::json{{"type", "suggest"}, {"name", name}, {"distribution", distribution}}
                .dump() +
            "\n");
        const nlohmann::json answer = receive();
        const std::string action = answer.value("action", "");
        if (action == "value") {
            return answer.value("value", nlohmann::json());
        }
        if (action == "error") {
            throw std::invalid_argument(answer.value("message", "the engine refused"));
        }
        throw std::runtime_error("tunedeck: unknown answer to suggest: " + answer.dump());
    }

    // Reports one iteration's metrics (numbers, strings, booleans) and waits for the engine's
    // decision. `checkpointDir` names a folder the trial has just written a checkpoint into.
    // A true "done" among the metrics finishes the trial: the answer is Action::Stop.
    Action report(const nlohmann::json& metrics, std::optional<std::string> checkpointDir = {}) {
        if (stopped_) {
            return Action::Stop;  // a windowed trial learns of a stop at its next report
        }
        // Metrics without NaN or infinities (nearly all) are written as they are, uncopied.
        const bool allFinite = !holdsNonFinite(metrics);
        const nlohmann::json converted = allFinite ? nlohmann::json() : finite(metrics);
        const nlohmann::json& clean = allFinite ? metrics : converted;
        const auto given = clean.find("training_iteration");
        iteration_ = (given != clean.end() && given->is_number_integer()) ? given->get<long long>()
                                                                          : iteration_ + 1;
        if (!connected()) {
            std::printf("tunedeck report: %s\n", clean.dump().c_str());
            std::fflush(stdout);
            return Action::Continue;
        }
        // {"type":"report","metrics":{...}[,"checkpoint":"DIR"]}, put together as text: the
        // metrics are serialised once, and no message document is built around them.
        std::string line = "{\"type\":\"report\",\"metrics\":";
        line += dumpLine(clean);
        if (checkpointDir) {
            line += ",\"checkpoint\":";
            line += dumpLine(nlohmann::json(absolute(*checkpointDir)));
        }
        line += "}\n";
        writeLine(line);
        const long long window = reportWindow();
        if (window <= 1 && unanswered_ == 0) {
            return followAnswers();
        }
        ++unanswered_;
        // A folder handed over must not change before the engine has it: that report waits for
        // its answer, as every report does without a window.
        const long long mayStayUnanswered = checkpointDir ? 0 : window - 1;
        return followWindowedAnswers(mayStayUnanswered, std::max(0LL, window / 2));
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

    // Reads the answers that have arrived without waiting; waits only while more than
    // `mayStayUnanswered` reports are unanswered, and then until no more than `resumeAt` are,
    // so a full window costs one wait for half a window of answers, not one per answer.
    Action followWindowedAnswers(long long mayStayUnanswered, long long resumeAt) {
        bool waiting = unanswered_ > mayStayUnanswered;
        const long long target = std::min(mayStayUnanswered, resumeAt);
        while (unanswered_ > 0) {
            std::optional<nlohmann::json> answer = takeLine();
            if (!answer && !fill(waiting)) {
                return Action::Continue;  // nothing has arrived and nothing forces a wait
            }
            if (!answer) {
                continue;
            }
            const std::string action = text(*answer, "action");
            --unanswered_;
            if (action == "continue") {
                waiting = waiting && unanswered_ > target;
                continue;
            }
            if (action == "stop") {
                // Later reports were not recorded (the trial was being stopped).
                unanswered_ = 0;
                stopped_ = true;
                done();
                return Action::Stop;
            }
            if (action == "save" || action == "pause") {
                // The engine takes no report while a checkpoint it asked for is due: those sent
                // after the answered one get no answer. The trial has trained past the iteration
                // the checkpoint is for, so it declines, as a trial without a save function does.
                const bool current = unanswered_ == 0;
                unanswered_ = 0;
                return onCheckpointAsked(action, text(*answer, "path"), current);
            }
            throw std::runtime_error("tunedeck: unknown answer from the engine: " + answer->dump());
        }
        return Action::Continue;
    }

    Action onCheckpointAsked(const std::string& action, const std::string& path, bool canSave) {
        if (save_ && canSave && !path.empty()) {
            save_(path);
            send({{"type", "checkpoint"}, {"path", path}});
        } else {
            send({{"type", "checkpoint"}, {"path", nullptr}});  // cannot save on request
        }
        if (action == "pause") {
            ended_ = true;  // a paused trial exits without `done`
            return Action::Pause;
        }
        return followAnswers();  // the answer to the checkpoint follows
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

    static std::string dumpLine(const nlohmann::json& value) {
        return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    static bool holdsNonFinite(const nlohmann::json& value) {
        if (value.is_number_float()) {
            return !std::isfinite(value.get<double>());
        }
        if (value.is_structured()) {
            for (const auto& item : value) {
                if (holdsNonFinite(item)) {
                    return true;
                }
            }
        }
        return false;
    }

    void send(const nlohmann::json& message) { writeLine(dumpLine(message) + "\n"); }

    void writeLine(const std::string& line) {
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
            if (std::optional<nlohmann::json> answer = takeLine()) {
                return std::move(*answer);
            }
            fill(true);
        }
    }

    // The next whole answer already read, if any.
    std::optional<nlohmann::json> takeLine() {
        const std::size_t newline = buffer_.find('\n', taken_);
        if (newline == std::string::npos) {
            return std::nullopt;
        }
        const char* begin = buffer_.data() + taken_;
        const char* end = buffer_.data() + newline;
        taken_ = newline + 1;
        nlohmann::json answer;
        // The engine's answers to reports are mostly this line, byte for byte; anything else
        // goes through the parser.
        static const char kContinue[] = "{\"action\":\"continue\"}";
        if (std::size_t(end - begin) == sizeof kContinue - 1 &&
            std::memcmp(begin, kContinue, sizeof kContinue - 1) == 0) {
            answer = nlohmann::json{{"action", "continue"}};
        } else {
            answer = nlohmann::json::parse(begin, end, nullptr, false);
            if (answer.is_discarded() || !answer.is_object()) {
                throw std::runtime_error(
                    "tunedeck: the engine sent an answer that is not a JSON object: " +
                    std::string(begin, end));
            }
        }
        if (taken_ == buffer_.size()) {
            buffer_.clear();
            taken_ = 0;
        }
        return answer;
    }

    // Reads what the channel holds; waits for something when `wait`. False when it did not
    // wait and nothing was there.
    bool fill(bool wait) {
        for (;;) {
            if (!wait) {
                pollfd ready{readFd_, POLLIN, 0};
                const int n = ::poll(&ready, 1, 0);
                if (n < 0 && errno == EINTR) {
                    continue;
                }
                if (n == 0) {
                    return false;
                }
            }
            char chunk[4096];
            const ssize_t n = ::read(readFd_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                throw std::runtime_error("tunedeck: the worker closed the trial channel");
            }
            if (taken_ > 0) {
                buffer_.erase(0, taken_);
                taken_ = 0;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
            return true;
        }
    }

    nlohmann::json config_;
    std::optional<std::string> restoreDir_;
    std::string trialDir_;
    long long iteration_ = 0;
    int readFd_ = -1;
    int writeFd_ = -1;
    bool ended_ = false;
    bool stopped_ = false;         // a windowed trial read `stop`
    long long askedWindow_ = 1;    // setReportWindow()
    long long grantedWindow_ = 1;  // TUNEDECK_REPORT_WINDOW
    long long unanswered_ = 0;     // windowed reports sent whose answer has not been read
    SaveFunction save_;
    std::string buffer_;  // bytes read from the channel; those before taken_ are used
    std::size_t taken_ = 0;
};

}  // namespace tunedeck
