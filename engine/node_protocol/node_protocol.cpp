#include "node_protocol/node_protocol.h"

#include <cmath>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <tuple>
#include <type_traits>

namespace tunedeck::node {

namespace {

using nlohmann::json;

// How much of an unreadable line an error quotes.
constexpr std::size_t kPreviewBytes = 200;

std::string dumpText(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string_view trimmed(std::string_view text) {
    constexpr std::string_view kWhitespace = " \t\r\n";
    const std::size_t first = text.find_first_not_of(kWhitespace);
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(kWhitespace) - first + 1);
}

std::string preview(std::string_view text) {
    if (text.size() <= kPreviewBytes) {
        return std::string(text);
    }
    std::size_t cut = kPreviewBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;  // no UTF-8 character is split
    }
    return std::string(text.substr(0, cut));
}

// `text` as a JSON string. Ids and answers are plain ASCII on every hot path: those are quoted
// without building a document.
std::string jsonString(std::string_view text) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x80 || c == '"' || c == '\\') {
            return dumpText(json(std::string(text)));
        }
    }
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    out += text;
    out += '"';
    return out;
}

json idJson(const TrialId& id) {
    if (id.integer) {
        const json number = json::parse(id.text, nullptr, false);
        return number.is_number_integer() ? number : json(id.text);
    }
    return id.text;
}

template <class T>
json optionalJson(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

// `object` serialised with each of `raw` (name, JSON text) appended as it is: payloads of the
// trial protocol and manifests go out without being parsed and printed again.
std::string withRawFields(
    const json& object, std::initializer_list<std::pair<std::string_view, std::string_view>> raw) {
    std::string text = dumpText(object);
    text.pop_back();  // the closing brace
    for (const auto& [name, value] : raw) {
        if (text.size() > 1) {
            text += ',';
        }
        text += dumpText(json(std::string(name)));
        text += ':';
        text += value.empty() ? std::string_view("{}") : value;
    }
    text += '}';
    return text;
}

// Reads the fields of one message; the first problem is kept, named "NAME: FIELD ...".
class Fields {
  public:
    Fields(const json& object, std::string name) : object_(object), name_(std::move(name)) {}

    bool ok() const { return problem_.empty(); }
    DecodeError error() const { return {name_ + ": " + problem_, name_, trial_, to_}; }

    const json* find(const char* key) const {
        const auto it = object_.find(key);
        return it == object_.end() || it->is_null() ? nullptr : &*it;
    }

    void fail(const std::string& problem) {
        if (problem_.empty()) {
            problem_ = problem;
        }
    }
    void failField(const char* key, const std::string& what) {
        fail("\"" + std::string(key) + "\" must be " + what);
    }

    TrialId trialId(const char* key = "trial") {
        std::optional<TrialId> id = optionalTrialId(key);
        if (!id) {
            failField(key, "a non-empty string or an integer (the trial's id)");
            return {};
        }
        return *id;
    }
    std::optional<TrialId> optionalTrialId(const char* key = "trial") {
        const json* value = find(key);
        if (value == nullptr) {
            return std::nullopt;
        }
        std::optional<TrialId> id = readId(*value);
        if (!id) {
            failField(key, "a non-empty string or an integer (the trial's id)");
        } else if (std::string_view(key) == "trial") {
            trial_ = id;
        }
        return id;
    }
    static std::optional<TrialId> readId(const json& value) {
        if (value.is_string() && !value.get_ref<const std::string&>().empty()) {
            return TrialId(value.get<std::string>());
        }
        if (value.is_number_integer()) {
            TrialId id(value.dump());
            id.integer = true;
            return id;
        }
        return std::nullopt;
    }

    std::string text(const char* key, bool nonEmpty = false) {
        const json* value = find(key);
        if (value == nullptr || !value->is_string() ||
            (nonEmpty && value->get_ref<const std::string&>().empty())) {
            failField(key, nonEmpty ? "a non-empty string" : "a string");
            return {};
        }
        return value->get<std::string>();
    }
    std::optional<std::string> optionalText(const char* key) {
        const json* value = find(key);
        if (value == nullptr) {
            return std::nullopt;
        }
        if (!value->is_string()) {
            failField(key, "a string");
            return std::nullopt;
        }
        return value->get<std::string>();
    }
    template <class Int>
    Int integer(const char* key) {
        std::optional<Int> value = optionalInteger<Int>(key);
        if (!value) {
            failField(key, "an integer");
            return 0;
        }
        return *value;
    }
    template <class Int>
    std::optional<Int> optionalInteger(const char* key) {
        const json* value = find(key);
        if (value == nullptr) {
            return std::nullopt;
        }
        std::optional<Int> read = readInteger<Int>(*value);
        if (!read) {
            failField(key, "an integer");
        }
        return read;
    }
    template <class Int>
    static std::optional<Int> readInteger(const json& value) {
        if (value.is_number_unsigned()) {
            const auto n = value.get<json::number_unsigned_t>();
            if (n <= static_cast<json::number_unsigned_t>(std::numeric_limits<Int>::max())) {
                return static_cast<Int>(n);
            }
        } else if (value.is_number_integer()) {
            const auto n = value.get<json::number_integer_t>();
            if (n >= std::numeric_limits<Int>::min() && n <= std::numeric_limits<Int>::max()) {
                return static_cast<Int>(n);
            }
        }
        return std::nullopt;
    }
    double number(const char* key) {
        std::optional<double> value = optionalNumber(key);
        if (!value) {
            failField(key, "a number");
            return 0;
        }
        return *value;
    }
    std::optional<double> optionalNumber(const char* key) {
        const json* value = find(key);
        if (value == nullptr) {
            return std::nullopt;
        }
        if (!value->is_number()) {
            failField(key, "a number");
            return std::nullopt;
        }
        return value->get<double>();
    }
    bool flag(const char* key, bool fallback) {
        const json* value = find(key);
        if (value == nullptr) {
            return fallback;
        }
        if (!value->is_boolean()) {
            failField(key, "true or false");
            return fallback;
        }
        return value->get<bool>();
    }
    // A JSON object, as text.
    std::string objectText(const char* key) {
        const json* value = find(key);
        if (value == nullptr || !value->is_object()) {
            failField(key, "a JSON object");
            return {};
        }
        return dumpText(*value);
    }
    const json* array(const char* key, bool required) {
        const json* value = find(key);
        if (value == nullptr) {
            if (required) {
                failField(key, "an array");
            }
            return nullptr;
        }
        if (!value->is_array()) {
            failField(key, "an array");
            return nullptr;
        }
        return value;
    }
    std::vector<std::string> texts(const char* key, bool required) {
        std::vector<std::string> out;
        if (const json* list = array(key, required)) {
            for (const json& item : *list) {
                if (!item.is_string()) {
                    failField(key, "an array of strings");
                    return {};
                }
                out.push_back(item.get<std::string>());
            }
        }
        return out;
    }
    void remember(std::optional<std::string> to) { to_ = std::move(to); }

  private:
    const json& object_;
    std::string name_;
    std::string problem_;
    std::optional<TrialId> trial_;
    std::optional<std::string> to_;
};

// ---- ops ----

json toJson(const StartOp& op) {
    json env = json::object();
    for (const auto& [name, value] : op.env) {
        env[name] = optionalJson(value);
    }
    json out{{"op", "start"},
             {"trial", idJson(op.trial)},
             {"argv", op.argv},
             {"env", std::move(env)},
             {"trial_dir", op.trialDir}};
    if (op.cwd) {
        out["cwd"] = *op.cwd;
    }
    if (op.logPrefix) {
        out["log_prefix"] = *op.logPrefix;
    }
    if (op.interfaceFor) {
        out["interface_for"] = *op.interfaceFor;
    }
    if (!op.freePorts.empty()) {
        out["free_ports"] = op.freePorts;
    }
    return out;
}

// The names of environment variables and of port variables: what setenv() accepts.
bool isVariableName(const std::string& name) {
    return !name.empty() && name.find('=') == std::string::npos &&
           name.find('\0') == std::string::npos;
}

StartOp readStart(Fields& f) {
    StartOp op;
    op.trial = f.trialId();
    op.argv = f.texts("argv", true);
    if (f.ok() && op.argv.empty()) {
        f.failField("argv", "a non-empty array of strings");
    }
    if (const json* env = f.find("env")) {
        if (!env->is_object()) {
            f.failField("env", "an object of strings");
        } else {
            for (const auto& [name, value] : env->items()) {
                if (!isVariableName(name)) {
                    f.fail("\"env\" holds an invalid variable name \"" + name + "\"");
                } else if (value.is_string()) {
                    op.env.emplace_back(name, value.get<std::string>());
                } else if (value.is_null()) {
                    op.env.emplace_back(name, std::nullopt);
                } else if (value.is_number() || value.is_boolean()) {
                    op.env.emplace_back(name, value.dump());
                } else {
                    f.fail("\"env\" value of " + name + " must be a string");
                }
            }
        }
    }
    op.cwd = f.optionalText("cwd");
    op.trialDir = f.text("trial_dir", true);
    op.logPrefix = f.optionalText("log_prefix");
    if (op.logPrefix && op.logPrefix->size() > 64) {
        f.failField("log_prefix", "a string of at most 64 bytes");
    }
    op.interfaceFor = f.optionalText("interface_for");
    if (const json* ports = f.array("free_ports", false)) {
        if (ports->size() > 8) {
            f.failField("free_ports", "a list of at most 8 variable names");
        }
        for (const json& name : *ports) {
            if (!name.is_string() || !isVariableName(name.get_ref<const std::string&>())) {
                f.failField("free_ports", "a list of variable names");
                break;
            }
            op.freePorts.push_back(name.get<std::string>());
        }
    }
    return op;
}

AnswerOp readAnswer(Fields& f, const json& object) {
    AnswerOp op;
    op.trial = f.trialId();
    op.answer = f.objectText("answer");
    if (const auto answer = object.find("answer"); answer != object.end() && answer->is_object()) {
        if (const auto path = answer->find("path"); path != answer->end() && path->is_string()) {
            op.savePath = path->get<std::string>();
        }
    }
    return op;
}

json toJson(const ProtectedFolder& place) {
    return {{"path", place.path}, {"what", place.what}};
}

CommitCheckpointOp readCommit(Fields& f) {
    CommitCheckpointOp op;
    op.trial = f.optionalTrialId();
    f.remember(f.optionalText("to"));
    op.from = f.text("from");
    op.to = f.text("to");
    op.manifest = f.objectText("manifest");
    op.handover = f.optionalText("handover").value_or("engine");
    if (op.handover != "engine" && op.handover != "trial") {
        f.failField("handover", "\"engine\" or \"trial\"");
    }
    op.trialDir = f.optionalText("trial_dir");
    if (const json* list = f.array("protect", false)) {
        for (const json& place : *list) {
            const auto path = place.is_object() ? place.find("path") : place.end();
            if (!place.is_object() || path == place.end() || !path->is_string()) {
                f.failField("protect", "a list of {\"path\", \"what\"} objects");
                break;
            }
            const auto what = place.find("what");
            op.protect.push_back({path->get<std::string>(), what != place.end() && what->is_string()
                                                                ? what->get<std::string>()
                                                                : path->get<std::string>()});
        }
    }
    return op;
}

std::string encode(const StartOp& op) {
    return dumpText(toJson(op));
}
std::string encode(const AnswerOp& op) {
    // The answer to every report goes this way: put together without a document.
    std::string line = R"({"op":"answer","trial":)";
    line += op.trial.key();
    line += R"(,"answer":)";
    line += op.answer.empty() ? std::string_view("{}") : std::string_view(op.answer);
    line += '}';
    return line;
}
std::string encode(const CommitCheckpointOp& op) {
    json out{{"op", "commit_checkpoint"},
             {"trial", op.trial ? idJson(*op.trial) : json(nullptr)},
             {"from", op.from},
             {"to", op.to},
             {"handover", op.handover}};
    if (op.trialDir) {
        out["trial_dir"] = *op.trialDir;
    }
    if (!op.protect.empty()) {
        json protect = json::array();
        for (const ProtectedFolder& place : op.protect) {
            protect.push_back(toJson(place));
        }
        out["protect"] = std::move(protect);
    }
    return withRawFields(out, {{"manifest", op.manifest}});
}
std::string encode(const DeleteCheckpointOp& op) {
    return dumpText({{"op", "delete_checkpoint"}, {"path", op.path}});
}
std::string encode(const KillOp& op) {
    return dumpText({{"op", "kill"}, {"trial", idJson(op.trial)}, {"reason", op.reason}});
}
std::string encode(const MonitorOp& op) {
    return dumpText({{"op", "monitor"}, {"interval_s", op.intervalS}});
}
std::string encode(const GpuSharingOp& op) {
    return dumpText({{"op", "gpu_sharing"}, {"mode", op.mode}});
}
std::string encode(const ShutdownOp&) {
    return dumpText({{"op", "shutdown"}});
}

// ---- events ----

std::string encode(const Hello& hello) {
    json gpus = json::array();
    for (const HelloGpu& gpu : hello.gpus) {
        gpus.push_back({{"index", gpu.index},
                        {"uuid", gpu.uuid},
                        {"name", gpu.name},
                        {"memory_mb", gpu.memoryMb}});
    }
    return dumpText({{"ev", "hello"},
                     {"version", hello.version},
                     {"commit", hello.commit},
                     {"pid", hello.pid},
                     {"hostname", hello.hostname},
                     {"cpus", hello.cpus},
                     {"memory_mb", hello.memoryMb},
                     {"gpus", std::move(gpus)},
                     {"gpu_note", hello.gpuNote}});
}
std::string encode(const Heartbeat& beat) {
    return dumpText({{"ev", "heartbeat"}, {"time", beat.time}});
}
std::string encode(const Started& started) {
    json out{{"ev", "started"}, {"trial", idJson(started.trial)}, {"pid", started.pid}};
    if (!started.ports.empty()) {
        out["ports"] = started.ports;
    }
    return dumpText(out);
}
std::string encode(const TrialLine& line) {
    std::string text = trialLinePrefix(line.trial);
    text += line.msg.empty() ? std::string_view("{}") : std::string_view(line.msg);
    text += '}';
    return text;
}
std::string encode(const TrialError& error) {
    return dumpText(
        {{"ev", "trial_error"}, {"trial", idJson(error.trial)}, {"message", error.message}});
}
std::string encode(const Exited& exited) {
    json out{{"ev", "exited"},
             {"trial", idJson(exited.trial)},
             {"code", optionalJson(exited.code)},
             {"signal", optionalJson(exited.signal)},
             {"oom_killed", exited.oomKilled},
             {"log_tail", exited.logTail}};
    if (exited.peakRssMb) {
        out["peak_rss_mb"] = *exited.peakRssMb;
    }
    return dumpText(out);
}
std::string encode(const Committed& committed) {
    json out{{"ev", "committed"},
             {"trial", committed.trial ? idJson(*committed.trial) : json(nullptr)},
             {"to", committed.to},
             {"ok", committed.ok},
             {"error", optionalJson(committed.error)}};
    if (committed.handover) {
        out["handover"] = *committed.handover;
    }
    return dumpText(out);
}
std::string encode(const Error& error) {
    json out{{"ev", "error"}, {"message", error.message}};
    if (error.path) {
        out["path"] = *error.path;
    }
    return dumpText(out);
}
std::string encode(const Usage& usage) {
    json gpus = json::array();
    for (const GpuUsage& gpu : usage.gpus) {
        json trials = json::array();
        for (const TrialId& id : gpu.trials) {
            trials.push_back(idJson(id));
        }
        gpus.push_back({{"index", gpu.index},
                        {"uuid", gpu.uuid},
                        {"name", gpu.name},
                        {"utilization_percent", optionalJson(gpu.utilizationPercent)},
                        {"memory_used_mb", gpu.memoryUsedMb},
                        {"memory_total_mb", gpu.memoryTotalMb},
                        {"temperature_c", optionalJson(gpu.temperatureC)},
                        {"power_w", optionalJson(gpu.powerW)},
                        {"trials", std::move(trials)},
                        {"lost", gpu.lost}});
    }
    json trials = json::array();
    for (const TrialUsage& trial : usage.trials) {
        json entry{{"trial", idJson(trial.trial)},
                   {"cpu_percent", optionalJson(trial.cpuPercent)},
                   {"rss_mb", trial.rssMb},
                   {"processes", trial.processes}};
        if (trial.gpuMemoryMb) {
            entry["gpu_memory_mb"] = *trial.gpuMemoryMb;
        }
        if (trial.rank) {
            entry["rank"] = *trial.rank;
        }
        trials.push_back(std::move(entry));
    }
    return dumpText({{"ev", "usage"},
                     {"time", usage.time},
                     {"cpu_percent", optionalJson(usage.cpuPercent)},
                     {"memory_used_mb", usage.memoryUsedMb},
                     {"memory_total_mb", usage.memoryTotalMb},
                     {"gpus", std::move(gpus)},
                     {"trials", std::move(trials)}});
}
std::string encode(const GpuLost& lost) {
    return dumpText(
        {{"ev", "gpu_lost"}, {"index", lost.index}, {"uuid", lost.uuid}, {"reason", lost.reason}});
}
std::string encode(const GpuSharing& sharing) {
    json out{{"ev", "gpu_sharing"}, {"mode", sharing.mode}};
    if (sharing.reason) {
        out["reason"] = *sharing.reason;
    }
    return dumpText(out);
}

Hello readHello(Fields& f) {
    Hello hello;
    hello.version = f.text("version");
    hello.commit = f.optionalText("commit").value_or("");
    hello.pid = f.optionalInteger<std::int64_t>("pid").value_or(0);
    hello.hostname = f.optionalText("hostname").value_or("");
    hello.cpus = f.integer<int>("cpus");
    hello.memoryMb = f.optionalInteger<std::int64_t>("memory_mb").value_or(0);
    if (const json* gpus = f.array("gpus", false)) {
        for (const json& entry : *gpus) {
            if (!entry.is_object()) {
                f.failField("gpus", "an array of objects");
                break;
            }
            Fields gpu(entry, "hello");
            HelloGpu card;
            card.index = gpu.integer<int>("index");
            card.uuid = gpu.text("uuid");
            card.name = gpu.optionalText("name").value_or("");
            card.memoryMb = gpu.optionalInteger<std::int64_t>("memory_mb").value_or(0);
            if (!gpu.ok()) {
                f.fail("\"gpus\" entry " + std::to_string(hello.gpus.size()) + ": " +
                       gpu.error().message.substr(std::string("hello: ").size()));
                break;
            }
            hello.gpus.push_back(std::move(card));
        }
    }
    hello.gpuNote = f.optionalText("gpu_note").value_or("");
    return hello;
}

Usage readUsage(Fields& f) {
    Usage usage;
    usage.time = f.number("time");
    usage.cpuPercent = f.optionalNumber("cpu_percent");
    usage.memoryUsedMb = f.optionalInteger<std::int64_t>("memory_used_mb").value_or(0);
    usage.memoryTotalMb = f.optionalInteger<std::int64_t>("memory_total_mb").value_or(0);
    const auto nested = [&f](const char* list, std::size_t index, const Fields& entry) {
        f.fail("\"" + std::string(list) + "\" entry " + std::to_string(index) + ": " +
               entry.error().message.substr(std::string("usage: ").size()));
    };
    if (const json* gpus = f.array("gpus", false)) {
        for (const json& entry : *gpus) {
            if (!entry.is_object()) {
                f.failField("gpus", "an array of objects");
                break;
            }
            Fields g(entry, "usage");
            GpuUsage gpu;
            gpu.index = g.integer<int>("index");
            gpu.uuid = g.text("uuid");
            gpu.name = g.optionalText("name").value_or("");
            gpu.utilizationPercent = g.optionalNumber("utilization_percent");
            gpu.memoryUsedMb = g.optionalInteger<std::int64_t>("memory_used_mb").value_or(0);
            gpu.memoryTotalMb = g.optionalInteger<std::int64_t>("memory_total_mb").value_or(0);
            gpu.temperatureC = g.optionalNumber("temperature_c");
            gpu.powerW = g.optionalNumber("power_w");
            if (const json* trials = g.array("trials", false)) {
                for (const json& id : *trials) {
                    std::optional<TrialId> read = Fields::readId(id);
                    if (!read) {
                        g.failField("trials", "an array of trial ids");
                        break;
                    }
                    gpu.trials.push_back(std::move(*read));
                }
            }
            gpu.lost = g.flag("lost", false);
            if (!g.ok()) {
                nested("gpus", usage.gpus.size(), g);
                break;
            }
            usage.gpus.push_back(std::move(gpu));
        }
    }
    if (const json* trials = f.array("trials", false)) {
        for (const json& entry : *trials) {
            if (!entry.is_object()) {
                f.failField("trials", "an array of objects");
                break;
            }
            Fields t(entry, "usage");
            TrialUsage trial;
            trial.trial = t.trialId();
            trial.cpuPercent = t.optionalNumber("cpu_percent");
            trial.rssMb = t.optionalNumber("rss_mb").value_or(0);
            trial.processes = t.optionalInteger<int>("processes").value_or(0);
            trial.gpuMemoryMb = t.optionalInteger<std::int64_t>("gpu_memory_mb");
            trial.rank = t.optionalInteger<int>("rank");
            if (!t.ok()) {
                nested("trials", usage.trials.size(), t);
                break;
            }
            usage.trials.push_back(std::move(trial));
        }
    }
    return usage;
}

Exited readExited(Fields& f) {
    Exited exited;
    exited.trial = f.trialId();
    exited.code = f.optionalInteger<int>("code");
    exited.signal = f.optionalInteger<int>("signal");
    exited.oomKilled = f.flag("oom_killed", false);
    exited.peakRssMb = f.optionalNumber("peak_rss_mb");
    exited.logTail = f.texts("log_tail", false);
    return exited;
}

Started readStarted(Fields& f) {
    Started started;
    started.trial = f.trialId();
    started.pid = f.optionalInteger<std::int64_t>("pid").value_or(0);
    if (const json* ports = f.find("ports")) {
        if (!ports->is_object()) {
            f.failField("ports", "an object of port numbers");
        } else {
            for (const auto& [name, port] : ports->items()) {
                const std::optional<int> number = Fields::readInteger<int>(port);
                if (!number) {
                    f.failField("ports", "an object of port numbers");
                    break;
                }
                started.ports[name] = *number;
            }
        }
    }
    return started;
}

// The relay's own shape, {"ev":"trial","trial":"ID","msg":{...}} with a plain string id, read
// without parsing the trial's line: the head parses that once, as the trial protocol's reader.
std::optional<TrialLine> fastTrialLine(std::string_view line) {
    constexpr std::string_view kHead = R"({"ev":"trial","trial":")";
    constexpr std::string_view kMsg = R"(","msg":)";
    if (line.substr(0, kHead.size()) != kHead) {
        return std::nullopt;
    }
    const std::size_t idEnd = line.find('"', kHead.size());
    if (idEnd == std::string_view::npos || idEnd == kHead.size()) {
        return std::nullopt;
    }
    const std::string_view id = line.substr(kHead.size(), idEnd - kHead.size());
    if (id.find('\\') != std::string_view::npos || line.substr(idEnd, kMsg.size()) != kMsg) {
        return std::nullopt;
    }
    std::string_view msg = line.substr(idEnd + kMsg.size());
    if (msg.size() < 3 || msg.front() != '{' || msg.back() != '}') {
        return std::nullopt;
    }
    msg.remove_suffix(1);
    if (msg.back() != '}') {
        return std::nullopt;
    }
    for (const char c : id) {
        if (static_cast<unsigned char>(c) < 0x20) {
            return std::nullopt;  // not valid JSON: the full parse says so
        }
    }
    return TrialLine{TrialId(std::string(id)), std::string(msg)};
}

template <class T>
Decoded<T> failed(DecodeError error) {
    Decoded<T> out;
    out.error = std::move(error);
    return out;
}

template <class T, class M>
Decoded<T> checked(Fields& f, M message) {
    if (!f.ok()) {
        return failed<T>(f.error());
    }
    Decoded<T> out;
    out.value = std::move(message);
    return out;
}

// The line as a JSON object, or why it is none.
std::optional<json> objectOf(std::string_view line, DecodeError* error) {
    const std::string_view body = trimmed(line);
    json object = json::parse(body.begin(), body.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
        error->message = "not a JSON object: " + preview(body);
        return std::nullopt;
    }
    return object;
}

}  // namespace

std::string TrialId::key() const {
    return integer ? text : jsonString(text);
}

#define TUNEDECK_EQUAL(Type, ...)                                                \
    bool Type::operator==(const Type& o) const {                                 \
        const auto fields = [](const Type& m) { return std::tie(__VA_ARGS__); }; \
        return fields(*this) == fields(o);                                       \
    }
TUNEDECK_EQUAL(StartOp, m.trial, m.argv, m.env, m.cwd, m.trialDir, m.logPrefix, m.interfaceFor,
               m.freePorts)
TUNEDECK_EQUAL(AnswerOp, m.trial, m.answer, m.savePath)
TUNEDECK_EQUAL(ProtectedFolder, m.path, m.what)
TUNEDECK_EQUAL(CommitCheckpointOp, m.trial, m.from, m.to, m.manifest, m.handover, m.trialDir,
               m.protect)
TUNEDECK_EQUAL(DeleteCheckpointOp, m.path)
TUNEDECK_EQUAL(KillOp, m.trial, m.reason)
TUNEDECK_EQUAL(MonitorOp, m.intervalS)
TUNEDECK_EQUAL(GpuSharingOp, m.mode)
TUNEDECK_EQUAL(HelloGpu, m.index, m.uuid, m.name, m.memoryMb)
TUNEDECK_EQUAL(Hello, m.version, m.commit, m.pid, m.hostname, m.cpus, m.memoryMb, m.gpus, m.gpuNote)
TUNEDECK_EQUAL(Heartbeat, m.time)
TUNEDECK_EQUAL(Started, m.trial, m.pid, m.ports)
TUNEDECK_EQUAL(TrialLine, m.trial, m.msg)
TUNEDECK_EQUAL(TrialError, m.trial, m.message)
TUNEDECK_EQUAL(Exited, m.trial, m.code, m.signal, m.oomKilled, m.peakRssMb, m.logTail)
TUNEDECK_EQUAL(Committed, m.trial, m.to, m.ok, m.handover, m.error)
TUNEDECK_EQUAL(Error, m.message, m.path)
TUNEDECK_EQUAL(GpuUsage, m.index, m.uuid, m.name, m.utilizationPercent, m.memoryUsedMb,
               m.memoryTotalMb, m.temperatureC, m.powerW, m.trials, m.lost)
TUNEDECK_EQUAL(TrialUsage, m.trial, m.cpuPercent, m.rssMb, m.processes, m.gpuMemoryMb, m.rank)
TUNEDECK_EQUAL(Usage, m.time, m.cpuPercent, m.memoryUsedMb, m.memoryTotalMb, m.gpus, m.trials)
TUNEDECK_EQUAL(GpuLost, m.index, m.uuid, m.reason)
TUNEDECK_EQUAL(GpuSharing, m.mode, m.reason)
#undef TUNEDECK_EQUAL

std::string encodeOp(const Op& op) {
    std::string line = std::visit([](const auto& m) { return encode(m); }, op);
    line += '\n';
    return line;
}

std::string encodeEvent(const Event& event) {
    std::string line = std::visit([](const auto& m) { return encode(m); }, event);
    line += '\n';
    return line;
}

const char* nameOf(const Op& op) {
    static constexpr const char* kNames[] = {
        "start", "answer",  "commit_checkpoint", "delete_checkpoint",
        "kill",  "monitor", "gpu_sharing",       "shutdown"};
    static_assert(std::size(kNames) == std::variant_size_v<Op>);
    return kNames[op.index()];
}

const char* nameOf(const Event& event) {
    static constexpr const char* kNames[] = {"hello",       "heartbeat", "started",    "trial",
                                             "trial_error", "exited",    "committed",  "error",
                                             "usage",       "gpu_lost",  "gpu_sharing"};
    static_assert(std::size(kNames) == std::variant_size_v<Event>);
    return kNames[event.index()];
}

const TrialId* trialOf(const Event& event) {
    return std::visit(
        [](const auto& m) -> const TrialId* {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, Committed>) {
                return m.trial ? &*m.trial : nullptr;
            } else if constexpr (std::is_same_v<M, Started> || std::is_same_v<M, TrialLine> ||
                                 std::is_same_v<M, TrialError> || std::is_same_v<M, Exited>) {
                return &m.trial;
            } else {
                return nullptr;
            }
        },
        event);
}

std::string trialLinePrefix(const TrialId& trial) {
    return R"({"ev":"trial","trial":)" + trial.key() + R"(,"msg":)";
}

Decoded<Op> decodeOp(std::string_view line) {
    DecodeError error;
    const std::optional<json> object = objectOf(line, &error);
    if (!object) {
        return failed<Op>(std::move(error));
    }
    const auto name = object->find("op");
    if (name == object->end() || !name->is_string()) {
        error.message = "a line without an \"op\" name: " + preview(trimmed(line));
        return failed<Op>(std::move(error));
    }
    const std::string& op = name->get_ref<const std::string&>();
    Fields f(*object, op);
    if (op == "start") {
        return checked<Op>(f, readStart(f));
    }
    if (op == "answer") {
        return checked<Op>(f, readAnswer(f, *object));
    }
    if (op == "commit_checkpoint") {
        return checked<Op>(f, readCommit(f));
    }
    if (op == "delete_checkpoint") {
        DeleteCheckpointOp m{f.text("path", true)};
        return checked<Op>(f, std::move(m));
    }
    if (op == "kill") {
        KillOp m;
        m.trial = f.trialId();
        m.reason = f.optionalText("reason").value_or("");
        return checked<Op>(f, std::move(m));
    }
    if (op == "monitor") {
        const std::optional<double> seconds = f.optionalNumber("interval_s");
        if (!seconds || !(*seconds >= 0) || !std::isfinite(*seconds)) {
            f.failField("interval_s", "a number of seconds, 0 or more (0 stops sampling)");
        }
        return checked<Op>(f, MonitorOp{seconds.value_or(0)});
    }
    if (op == "gpu_sharing") {
        GpuSharingOp m{f.optionalText("mode").value_or("")};
        if (m.mode != "mps" && m.mode != "time_slicing") {
            f.failField("mode", "\"mps\" or \"time_slicing\"");
        }
        return checked<Op>(f, std::move(m));
    }
    if (op == "shutdown") {
        return checked<Op>(f, ShutdownOp{});
    }
    error.name = op;
    error.message = "unknown op \"" + op + "\": " + preview(trimmed(line));
    return failed<Op>(std::move(error));
}

Decoded<Event> decodeEvent(std::string_view line) {
    const std::string_view body = trimmed(line);
    if (std::optional<TrialLine> relayed = fastTrialLine(body)) {
        Decoded<Event> out;
        out.value = std::move(*relayed);
        return out;
    }
    DecodeError error;
    const std::optional<json> object = objectOf(body, &error);
    if (!object) {
        return failed<Event>(std::move(error));
    }
    const auto name = object->find("ev");
    if (name == object->end() || !name->is_string()) {
        error.message = "a line without an \"ev\" name: " + preview(body);
        return failed<Event>(std::move(error));
    }
    const std::string& ev = name->get_ref<const std::string&>();
    Fields f(*object, ev);
    if (ev == "hello") {
        return checked<Event>(f, readHello(f));
    }
    if (ev == "heartbeat") {
        return checked<Event>(f, Heartbeat{f.number("time")});
    }
    if (ev == "started") {
        return checked<Event>(f, readStarted(f));
    }
    if (ev == "trial") {
        TrialLine m;
        m.trial = f.trialId();
        m.msg = f.objectText("msg");
        return checked<Event>(f, std::move(m));
    }
    if (ev == "trial_error") {
        TrialError m;
        m.trial = f.trialId();
        m.message = f.text("message");
        return checked<Event>(f, std::move(m));
    }
    if (ev == "exited") {
        return checked<Event>(f, readExited(f));
    }
    if (ev == "committed") {
        Committed m;
        m.trial = f.optionalTrialId();
        m.to = f.text("to");
        m.ok = f.flag("ok", false);
        m.handover = f.optionalText("handover");
        m.error = f.optionalText("error");
        return checked<Event>(f, std::move(m));
    }
    if (ev == "error") {
        Error m;
        m.message = f.text("message");
        m.path = f.optionalText("path");
        return checked<Event>(f, std::move(m));
    }
    if (ev == "usage") {
        return checked<Event>(f, readUsage(f));
    }
    if (ev == "gpu_lost") {
        GpuLost m;
        m.index = f.integer<int>("index");
        m.uuid = f.text("uuid");
        m.reason = f.optionalText("reason").value_or("");
        return checked<Event>(f, std::move(m));
    }
    if (ev == "gpu_sharing") {
        GpuSharing m;
        m.mode = f.text("mode");
        m.reason = f.optionalText("reason");
        return checked<Event>(f, std::move(m));
    }
    error.name = ev;
    error.message = "unknown event \"" + ev + "\": " + preview(body);
    return failed<Event>(std::move(error));
}

}  // namespace tunedeck::node
