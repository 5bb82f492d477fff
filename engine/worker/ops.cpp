// The engine's side of the loop: decoding each op of the node link and carrying it out. Every
// op that cannot be understood becomes an `error` event; none can stop the worker but shutdown.
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint_files.h"
#include "worker/json_line.h"
#include "worker/log_tail.h"
#include "worker/oom_watch.h"
#include "worker/trial_process.h"
#include "worker/tuning.h"
#include "worker/worker.h"

namespace tunedeck::worker {

namespace {

using nlohmann::json;
namespace ckpt = tunedeck::checkpoint;

// The places a folder handed over by a trial must not take with it: `trial_dir` and the
// `protect` list ({"path","what"} objects) of a commit_checkpoint op.
ckpt::HandoverPlaces handoverPlacesOf(const json& op) {
    ckpt::HandoverPlaces places;
    if (const auto dir = op.find("trial_dir"); dir != op.end() && dir->is_string()) {
        places.trialDir = dir->get<std::string>();
    }
    if (const auto list = op.find("protect"); list != op.end() && list->is_array()) {
        for (const json& place : *list) {
            const auto path = place.find("path");
            const auto what = place.find("what");
            if (place.is_object() && path != place.end() && path->is_string()) {
                places.folders.push_back(
                    {path->get<std::string>(), what != place.end() && what->is_string()
                                                   ? what->get<std::string>()
                                                   : path->get<std::string>()});
            }
        }
    }
    return places;
}

// A TCP port nothing listens on now (the kernel's pick for port 0); 0 when none can be had.
int freeTcpPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return 0;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
        port = ntohs(address.sin_port);
    }
    ::close(fd);
    return port;
}

// The name of this node's interface whose address this node uses to reach `address` (an IPv4
// address), or "" when there is no route: what gloo and NCCL must listen on for a gang's ranks
// on other nodes to reach them (a node whose hostname resolves to a loopback address otherwise
// makes them advertise 127.0.0.1).
std::string interfaceTowards(const std::string& address) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(9);
    if (::inet_pton(AF_INET, address.c_str(), &to.sin_addr) != 1) {
        return {};
    }
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return {};
    }
    sockaddr_in local{};
    socklen_t length = sizeof local;
    const bool routed = ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0 &&
                        ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0;
    ::close(fd);
    ifaddrs* list = nullptr;
    if (!routed || ::getifaddrs(&list) != 0) {
        return {};
    }
    std::string name;
    for (const ifaddrs* entry = list; entry != nullptr && name.empty(); entry = entry->ifa_next) {
        if (entry->ifa_addr != nullptr && entry->ifa_addr->sa_family == AF_INET &&
            reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr.s_addr ==
                local.sin_addr.s_addr) {
            name = entry->ifa_name;
        }
    }
    ::freeifaddrs(list);
    return name;
}

json committedEvent(const json& id, const std::string& to, const ckpt::FileOutcome& outcome,
                    const char* handover) {
    return {{"ev", "committed"},
            {"trial", id},
            {"to", to},
            {"ok", outcome.ok},
            {"handover", handover},
            {"error", outcome.ok ? json(nullptr) : json(outcome.error)}};
}

// A trial id is a non-empty string or an integer; it is echoed back exactly as given.
const json* trialIdOf(const json& op) {
    const auto id = op.find("trial");
    if (id == op.end()) {
        return nullptr;
    }
    if ((id->is_string() && !id->get_ref<const std::string&>().empty()) ||
        id->is_number_integer()) {
        return &*id;
    }
    return nullptr;
}

const std::string* stringField(const json& op, const char* name) {
    const auto field = op.find(name);
    return field != op.end() && field->is_string() ? &field->get_ref<const std::string&>()
                                                   : nullptr;
}

std::string describeOp(std::string_view line) {
    return std::string(preview(trimmed(line), kErrorPreviewBytes));
}

// Why a start op cannot be carried out, or nothing when `launch` was filled in.
std::optional<std::string> readLaunch(const json& op, TrialLaunch& launch) {
    const auto argv = op.find("argv");
    if (argv == op.end() || !argv->is_array() || argv->empty()) {
        return "\"argv\" must be a non-empty array of strings";
    }
    for (const json& arg : *argv) {
        if (!arg.is_string()) {
            return "\"argv\" must be a non-empty array of strings";
        }
        launch.argv.push_back(arg.get<std::string>());
    }
    if (const auto env = op.find("env"); env != op.end() && !env->is_null()) {
        if (!env->is_object()) {
            return "\"env\" must be an object of strings";
        }
        for (const auto& [name, value] : env->items()) {
            if (name.empty() || name.find('=') != std::string::npos) {
                return "\"env\" holds an invalid variable name \"" + name + "\"";
            }
            if (value.is_string()) {
                launch.env.emplace_back(name, value.get<std::string>());
            } else if (value.is_null()) {
                launch.env.emplace_back(name, std::nullopt);  // unset it in the trial
            } else if (value.is_number() || value.is_boolean()) {
                launch.env.emplace_back(name, value.dump());
            } else {
                return "\"env\" value of " + name + " must be a string";
            }
        }
    }
    if (const auto cwd = op.find("cwd"); cwd != op.end() && !cwd->is_null()) {
        if (!cwd->is_string()) {
            return "\"cwd\" must be a string";
        }
        launch.cwd = cwd->get<std::string>();
    }
    const std::string* trialDir = stringField(op, "trial_dir");
    if (!trialDir || trialDir->empty()) {
        return "\"trial_dir\" must be a path";
    }
    launch.trialDir = *trialDir;
    if (const auto prefix = op.find("log_prefix"); prefix != op.end() && !prefix->is_null()) {
        if (!prefix->is_string() || prefix->get_ref<const std::string&>().size() > 64) {
            return "\"log_prefix\" must be a string of at most 64 bytes";
        }
        launch.logPrefix = prefix->get<std::string>();
    }
    // `interface_for`: a gang rank on several nodes gets GLOO_SOCKET_IFNAME and
    // NCCL_SOCKET_IFNAME, the interface that reaches that address, unless they are set already.
    if (const std::string* peer = stringField(op, "interface_for"); peer && !peer->empty()) {
        const std::string name = interfaceTowards(*peer);
        for (const char* variable : {"GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME"}) {
            const bool given =
                std::getenv(variable) != nullptr ||
                std::any_of(launch.env.begin(), launch.env.end(),
                            [&](const auto& entry) { return entry.first == variable; });
            if (!name.empty() && !given) {
                launch.env.emplace_back(variable, name);
            }
        }
    }
    return std::nullopt;
}

// `free_ports`: names of variables the trial gets a free TCP port of this node in (a gang's
// MASTER_PORT, where rank 0 listens). Each is taken by binding port 0 and let go at once, as
// torchrun picks its port; the numbers are answered in `started`. Empty when none asked.
std::optional<std::string> pickFreePorts(const json& op, TrialLaunch& launch, json* ports) {
    const auto names = op.find("free_ports");
    if (names == op.end() || names->is_null()) {
        return std::nullopt;
    }
    if (!names->is_array() || names->size() > 8) {
        return "\"free_ports\" must be a list of at most 8 variable names";
    }
    for (const json& name : *names) {
        if (!name.is_string() || name.get_ref<const std::string&>().empty() ||
            name.get_ref<const std::string&>().find('=') != std::string::npos) {
            return "\"free_ports\" must be a list of variable names";
        }
        const int port = freeTcpPort();
        if (port <= 0) {
            return "no free TCP port on this node for " + name.get<std::string>();
        }
        launch.env.emplace_back(name.get<std::string>(), std::to_string(port));
        (*ports)[name.get<std::string>()] = port;
    }
    return std::nullopt;
}

json exitedWithoutStarting(const json& id, const std::vector<std::string>& logTail) {
    return {
        {"ev", "exited"}, {"trial", id}, {"code", 127}, {"signal", nullptr}, {"log_tail", logTail}};
}

// A trial given GPUs (a non-empty CUDA_VISIBLE_DEVICES) reaches the agent's MPS daemon, unless
// its own environment names another.
void addMpsClientEnvironment(TrialLaunch& launch, const MpsControl& mps) {
    const auto given = [&](const std::string& name) {
        return std::find_if(launch.env.begin(), launch.env.end(),
                            [&](const auto& entry) { return entry.first == name; });
    };
    const auto devices = given("CUDA_VISIBLE_DEVICES");
    if (!mps.running() || devices == launch.env.end() || !devices->second ||
        devices->second->empty()) {
        return;
    }
    for (auto& [name, value] : mps.clientEnvironment()) {
        if (given(name) == launch.env.end()) {
            launch.env.emplace_back(name, value);
        }
    }
}

}  // namespace

bool Worker::handleOpLine(std::string_view line) {
    if (m_shuttingDown) {
        return false;  // ops after shutdown are not carried out
    }
    const std::string_view body = trimmed(line);
    if (body.empty()) {
        return true;
    }
    const json op = json::parse(body.begin(), body.end(), nullptr, false);
    if (op.is_discarded() || !op.is_object()) {
        reportError("an op that is not a JSON object: " + describeOp(body));
        return true;
    }
    const std::string* name = stringField(op, "op");
    if (!name) {
        reportError("an op without an \"op\" name: " + describeOp(body));
        return true;
    }
    try {
        if (*name == "start") {
            opStart(op);
        } else if (*name == "answer") {
            opAnswer(op);
        } else if (*name == "commit_checkpoint") {
            opCommit(op);
        } else if (*name == "delete_checkpoint") {
            opDelete(op);
        } else if (*name == "kill") {
            opKill(op);
        } else if (*name == "monitor") {
            opMonitor(op);
        } else if (*name == "gpu_sharing") {
            opGpuSharing(op);
        } else if (*name == "shutdown") {
            beginShutdown("the engine asked the worker to shut down");
        } else {
            reportError("unknown op \"" + *name + "\": " + describeOp(body));
        }
    } catch (const std::exception& e) {
        // The ops are validated before use; this only catches what slipped through (bad_alloc).
        reportError("op \"" + *name + "\" failed: " + e.what());
    }
    return !m_shuttingDown;
}

void Worker::opStart(const json& op) {
    const json* id = trialIdOf(op);
    if (!id) {
        reportError("start needs a \"trial\" id (a non-empty string or an integer)");
        return;
    }
    const std::string key = id->dump();
    if (m_trials.count(key) != 0) {
        reportError("start of trial " + key + " refused: that trial is already running");
        return;
    }
    TrialLaunch launch;
    json ports = json::object();
    std::optional<std::string> problem = readLaunch(op, launch);
    if (!problem) {
        problem = pickFreePorts(op, launch, &ports);
    }
    if (problem) {
        // The engine waits for `started` or `exited`: answer both the mistake and the trial.
        reportError("start of trial " + key + " is malformed: " + *problem);
        m_out.emit(exitedWithoutStarting(*id, {"tunedeck-worker: " + *problem}));
        return;
    }
    addMpsClientEnvironment(launch, m_mps);
    const std::string token = m_strays.nextToken();
    launch.env.emplace_back(kTrialTokenVariable, token);
    LaunchedTrial launched = launchTrial(launch);
    if (!launched.failure.empty()) {
        std::vector<std::string> tail;
        if (!launched.logPath.empty()) {
            tail = readLogTail(launched.logPath, kLogTailLines, kLogTailMaxBytes);
        }
        if (tail.empty()) {
            tail.push_back("tunedeck-worker: " + launched.failure);  // there is no log to read
        }
        m_out.emit(exitedWithoutStarting(*id, tail));
        return;
    }
    auto trial = std::make_unique<RunningTrial>();
    trial->id = *id;
    trial->relayPrefix = R"({"ev":"trial","trial":)" + key + R"(,"msg":)";
    trial->pid = launched.pid;
    trial->token = token;
    trial->logPath = launched.logPath;
    trial->messageFd = launched.messageFd;
    trial->answerFd = launched.answerFd;
    trial->oomBefore = readOomCounts(launched.pid);
    m_trialByPid[launched.pid] = key;
    m_usage.trialStarted(launched.pid, *id);
    m_trials[key] = std::move(trial);
    json started{{"ev", "started"}, {"trial", *id}, {"pid", static_cast<long long>(launched.pid)}};
    if (!ports.empty()) {
        started["ports"] = std::move(ports);
    }
    m_out.emit(started);
}

void Worker::opAnswer(const json& op) {
    const json* id = trialIdOf(op);
    const auto answer = op.find("answer");
    if (!id || answer == op.end() || !answer->is_object()) {
        reportError("answer needs a \"trial\" id and an \"answer\" object");
        return;
    }
    RunningTrial* trial = findTrial(*id);
    if (!trial || trial->answerFd < 0) {
        return;  // the trial has ended; its `exited` is on its way or already sent
    }
    // `save` and `pause` name a folder on this node: it must exist, empty, before the trial
    // writes into it (the engine may be on another machine).
    if (const std::string* path = stringField(*answer, "path"); path && !path->empty()) {
        if (const ckpt::FileOutcome outcome =
                ckpt::prepareScratchFolder(ckpt::posixFileSystem(), *path);
            !outcome.ok) {
            reportError(outcome.error);
        }
    }
    (trial->handoversInFlight > 0 ? trial->heldAnswers : trial->answers) += toLine(*answer);
}

void Worker::releaseAnswers(const std::string& trialKey) {
    const auto entry = m_trials.find(trialKey);
    if (entry == m_trials.end()) {
        return;
    }
    RunningTrial& trial = *entry->second;
    if (--trial.handoversInFlight <= 0) {
        trial.handoversInFlight = 0;
        trial.answers += std::exchange(trial.heldAnswers, {});
    }
}

void Worker::opCommit(const json& op) {
    const auto idField = op.find("trial");
    const json id = idField != op.end() ? *idField : json(nullptr);
    const std::string* from = stringField(op, "from");
    const std::string* to = stringField(op, "to");
    const auto manifest = op.find("manifest");
    if (!from || !to || manifest == op.end() || !manifest->is_object()) {
        const std::string problem =
            "commit_checkpoint needs \"from\" and \"to\" paths and a \"manifest\" object";
        reportError(problem);
        if (to) {
            m_out.emit({{"ev", "committed"},
                        {"trial", id},
                        {"to", *to},
                        {"ok", false},
                        {"error", problem}});
        }
        return;
    }
    std::string manifestText = manifest->dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    // "engine": the scratch folder the engine named for a save (its name ends in .tmp), moved.
    // "trial": a folder the trial named, taken by handover.h's rule: moved, copied or refused.
    const std::string* handover = stringField(op, "handover");
    const bool engineScratch = (!handover || *handover == "engine") && from->size() > 4 &&
                               from->compare(from->size() - 4, 4, ".tmp") == 0;
    std::string holds;
    if (!engineScratch && idField != op.end()) {
        if (RunningTrial* trial = findTrial(id)) {
            ++trial->handoversInFlight;
            holds = id.dump();
        }
    }
    m_mover.submit(
        [id, from = *from, to = *to, manifestText = std::move(manifestText), engineScratch,
         places = handoverPlacesOf(op)] {
            ckpt::FileSystem& fs = ckpt::posixFileSystem();
            if (engineScratch) {
                return toLine(committedEvent(
                    id, to,
                    ckpt::commitCheckpoint(fs, from, to, manifestText, ckpt::Handover::Move),
                    "moved"));
            }
            std::string resolved;
            const ckpt::HandoverChoice choice =
                ckpt::chooseHandoverOnDisk(fs, from, places, &resolved);
            if (!choice.how) {
                return toLine(committedEvent(id, to, {false, choice.refusal}, "refused"));
            }
            return toLine(committedEvent(
                id, to, ckpt::commitCheckpoint(fs, resolved, to, manifestText, *choice.how),
                *choice.how == ckpt::Handover::Move ? "moved" : "copied"));
        },
        std::move(holds));
}

void Worker::opDelete(const json& op) {
    const std::string* path = stringField(op, "path");
    if (!path || path->empty()) {
        reportError("delete_checkpoint needs a \"path\"");
        return;
    }
    m_mover.submit([path = *path] {
        const ckpt::FileOutcome outcome = ckpt::deleteCheckpoint(ckpt::posixFileSystem(), path);
        if (outcome.ok) {
            return std::string();
        }
        return toLine({{"ev", "error"}, {"message", outcome.error}, {"path", path}});
    });
}

void Worker::opKill(const json& op) {
    const json* id = trialIdOf(op);
    if (!id) {
        reportError("kill needs a \"trial\" id");
        return;
    }
    RunningTrial* trial = findTrial(*id);
    if (!trial) {
        return;  // already gone: its `exited` has been sent
    }
    const std::string* reason = stringField(op, "reason");
    stopTrial(*trial, "stopping the trial" + (reason && !reason->empty() ? ": " + *reason : ""));
}

void Worker::opMonitor(const json& op) {
    const auto interval = op.find("interval_s");
    if (interval == op.end() || !interval->is_number() || !(interval->get<double>() >= 0)) {
        reportError("monitor needs \"interval_s\", a number of seconds (0 stops sampling)");
        return;
    }
    const double seconds = interval->get<double>();
    m_usage.setInterval(
        seconds == 0 ? 0 : std::clamp(seconds, kShortestSampleIntervalS, kLongestSampleIntervalS));
}

void Worker::opGpuSharing(const json& op) {
    const std::string* mode = stringField(op, "mode");
    if (!mode || (*mode != "mps" && *mode != "time_slicing")) {
        reportError("gpu_sharing needs \"mode\": \"mps\" or \"time_slicing\"");
        return;
    }
    std::optional<std::string> problem;
    if (*mode == "time_slicing") {
        m_mps.stop();
    } else if (m_usage.gpus().empty()) {
        problem = "this node offers no GPUs";
    } else {
        problem = m_mps.start();
    }
    json event{{"ev", "gpu_sharing"}, {"mode", m_mps.running() ? "mps" : "time_slicing"}};
    if (problem) {
        event["reason"] = *problem;
    }
    m_out.emit(event);
}

void Worker::beginShutdown(const std::string& reason) {
    if (m_shuttingDown) {
        return;
    }
    m_shuttingDown = true;
    m_opsOpen = false;
    for (auto& [key, trial] : m_trials) {
        stopTrial(*trial, "stopping the trial: " + reason);
    }
    m_giveUpAt = Clock::now() + kKillGrace + kReapPatience;
}

void Worker::reportError(const std::string& message) {
    m_out.emit({{"ev", "error"}, {"message", message}});
}

RunningTrial* Worker::findTrial(const json& id) {
    const auto entry = m_trials.find(id.dump());
    return entry == m_trials.end() ? nullptr : entry->second.get();
}

}  // namespace tunedeck::worker
