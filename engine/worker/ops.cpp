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
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "checkpoint/checkpoint_files.h"
#include "checkpoint/file_identity.h"
#include "node_protocol/node_protocol.h"
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
// `protect` list of a commit_checkpoint op.
ckpt::HandoverPlaces handoverPlacesOf(const node::CommitCheckpointOp& op) {
    ckpt::HandoverPlaces places;
    places.trialDir = op.trialDir.value_or("");
    for (const node::ProtectedFolder& place : op.protect) {
        places.folders.push_back({place.path, place.what});
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

std::string committedLine(const std::optional<node::TrialId>& id, const std::string& to,
                          const ckpt::FileOutcome& outcome, const char* handover) {
    return node::encodeEvent(
        node::Committed{id, to, outcome.ok, std::string(handover),
                        outcome.ok ? std::nullopt : std::optional<std::string>(outcome.error)});
}

// The launch of a start op (decoded and checked by node_protocol.h).
TrialLaunch launchOf(const node::StartOp& op) {
    TrialLaunch launch;
    launch.argv = op.argv;
    launch.env = op.env;
    launch.cwd = op.cwd.value_or("");
    launch.trialDir = op.trialDir;
    launch.logPrefix = op.logPrefix.value_or("");
    // `interface_for`: a gang rank on several nodes gets GLOO_SOCKET_IFNAME and
    // NCCL_SOCKET_IFNAME, the interface that reaches that address, unless they are set already.
    if (op.interfaceFor && !op.interfaceFor->empty()) {
        const std::string name = interfaceTowards(*op.interfaceFor);
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
    return launch;
}

// `free_ports`: names of variables the trial gets a free TCP port of this node in (a gang's
// MASTER_PORT, where rank 0 listens). Each is taken by binding port 0 and let go at once, as
// torchrun picks its port; the numbers are answered in `started`.
std::optional<std::string> pickFreePorts(const node::StartOp& op, TrialLaunch& launch,
                                         std::map<std::string, int>* ports) {
    for (const std::string& name : op.freePorts) {
        const int port = freeTcpPort();
        if (port <= 0) {
            return "no free TCP port on this node for " + name;
        }
        launch.env.emplace_back(name, std::to_string(port));
        (*ports)[name] = port;
    }
    return std::nullopt;
}

std::string exitedWithoutStarting(const node::TrialId& id, std::vector<std::string> logTail) {
    node::Exited exited;
    exited.trial = id;
    exited.code = 127;
    exited.logTail = std::move(logTail);
    return node::encodeEvent(exited);
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
    if (trimmed(line).empty()) {
        return true;
    }
    node::Decoded<node::Op> decoded = node::decodeOp(line);
    if (!decoded) {
        const node::DecodeError& error = decoded.error;
        reportError(error.message);
        // The engine waits for `started` or `exited` of a start, and for `committed` of a
        // commit: it gets those too, so no trial or checkpoint waits for ever.
        if (error.name == "start" && error.trial) {
            m_out.appendRaw(
                exitedWithoutStarting(*error.trial, {"tunedeck-worker: " + error.message}));
        } else if (error.name == "commit_checkpoint" && error.to) {
            m_out.emit(node::Committed{error.trial, *error.to, false, std::nullopt, error.message});
        }
        return true;
    }
    const node::Op& op = *decoded.value;
    try {
        std::visit(
            [this](const auto& m) {
                using M = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<M, node::StartOp>) {
                    opStart(m);
                } else if constexpr (std::is_same_v<M, node::AnswerOp>) {
                    opAnswer(m);
                } else if constexpr (std::is_same_v<M, node::CommitCheckpointOp>) {
                    opCommit(m);
                } else if constexpr (std::is_same_v<M, node::DeleteCheckpointOp>) {
                    opDelete(m);
                } else if constexpr (std::is_same_v<M, node::KillOp>) {
                    opKill(m);
                } else if constexpr (std::is_same_v<M, node::MonitorOp>) {
                    opMonitor(m);
                } else if constexpr (std::is_same_v<M, node::GpuSharingOp>) {
                    opGpuSharing(m);
                } else {
                    static_assert(std::is_same_v<M, node::ShutdownOp>);
                    beginShutdown("the engine asked the worker to shut down");
                }
            },
            op);
    } catch (const std::exception& e) {
        // The ops are validated before use; this only catches what slipped through (bad_alloc).
        reportError(std::string("op \"") + node::nameOf(op) + "\" failed: " + e.what());
    }
    return !m_shuttingDown;
}

void Worker::opStart(const node::StartOp& op) {
    const std::string key = op.trial.key();
    if (m_trials.count(key) != 0) {
        reportError("start of trial " + key + " refused: that trial is already running");
        return;
    }
    TrialLaunch launch = launchOf(op);
    std::map<std::string, int> ports;
    if (const std::optional<std::string> problem = pickFreePorts(op, launch, &ports)) {
        // The engine waits for `started` or `exited`: answer both the mistake and the trial.
        reportError("start of trial " + key + " failed: " + *problem);
        m_out.appendRaw(exitedWithoutStarting(op.trial, {"tunedeck-worker: " + *problem}));
        return;
    }
    addMpsClientEnvironment(launch, m_mps);
    const std::string token = m_strays.nextToken();
    launch.env.emplace_back(kTrialTokenVariable, token);
    launch.cgroupProcs = m_cgroups.create(token);
    LaunchedTrial launched = launchTrial(launch);
    if (!launched.failure.empty()) {
        m_cgroups.end(token);
        std::vector<std::string> tail;
        if (!launched.logPath.empty()) {
            tail = readLogTail(launched.logPath, kLogTailLines, kLogTailMaxBytes);
        }
        if (tail.empty()) {
            tail.push_back("tunedeck-worker: " + launched.failure);  // there is no log to read
        }
        m_out.appendRaw(exitedWithoutStarting(op.trial, std::move(tail)));
        return;
    }
    auto trial = std::make_unique<RunningTrial>();
    trial->id = op.trial;
    trial->relayPrefix = node::trialLinePrefix(op.trial);
    trial->pid = launched.pid;
    trial->token = token;
    trial->logPath = launched.logPath;
    trial->messageFd = launched.messageFd;
    trial->answerFd = launched.answerFd;
    trial->oomBefore = readOomCounts(launched.pid);
    m_trialByPid[launched.pid] = key;
    m_usage.trialStarted(launched.pid, op.trial);
    m_trials[key] = std::move(trial);
    m_out.emit(node::Started{op.trial, static_cast<std::int64_t>(launched.pid), std::move(ports)});
}

void Worker::opAnswer(const node::AnswerOp& op) {
    RunningTrial* trial = findTrial(op.trial);
    if (!trial || trial->answerFd < 0) {
        return;  // the trial has ended; its `exited` is on its way or already sent
    }
    // `save` and `pause` name a folder on this node: it must exist, empty, before the trial
    // writes into it (the engine may be on another machine). In the owner's trial folder it is
    // made as the owner, who runs the trial (a root agent's folder was not the trial's to write).
    if (!op.savePath.empty()) {
        const ckpt::FileOutcome outcome = ckpt::asExperimentOwner(
            [&] { return ckpt::prepareScratchFolder(ckpt::posixFileSystem(), op.savePath); });
        if (!outcome.ok) {
            reportError(outcome.error);
        }
    }
    std::string& queue = trial->handoversInFlight > 0 ? trial->heldAnswers : trial->answers;
    queue += op.answer;
    queue += '\n';
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

void Worker::opCommit(const node::CommitCheckpointOp& op) {
    // The manifest as the engine wrote it, pretty-printed for whoever opens the folder.
    const json manifest = json::parse(op.manifest, nullptr, false);
    std::string manifestText = manifest.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    // "engine": the scratch folder the engine named for a save (its name ends in .tmp), moved.
    // "trial": a folder the trial named, taken by handover.h's rule: moved, copied or refused.
    const std::string& from = op.from;
    const bool engineScratch =
        op.handover == "engine" && from.size() > 4 && from.compare(from.size() - 4, 4, ".tmp") == 0;
    std::string holds;
    if (!engineScratch && op.trial) {
        if (RunningTrial* trial = findTrial(*op.trial)) {
            ++trial->handoversInFlight;
            holds = op.trial->key();
        }
    }
    m_mover.submit(
        [id = op.trial, from, to = op.to, manifestText = std::move(manifestText), engineScratch,
         places = handoverPlacesOf(op)] {
            ckpt::FileSystem& fs = ckpt::posixFileSystem();
            if (engineScratch) {
                return committedLine(
                    id, to,
                    ckpt::commitCheckpoint(fs, from, to, manifestText, ckpt::Handover::Move),
                    "moved");
            }
            std::string resolved;
            const ckpt::HandoverChoice choice =
                ckpt::chooseHandoverOnDisk(fs, from, places, &resolved);
            if (!choice.how) {
                return committedLine(id, to, {false, choice.refusal}, "refused");
            }
            return committedLine(
                id, to, ckpt::commitCheckpoint(fs, resolved, to, manifestText, *choice.how),
                *choice.how == ckpt::Handover::Move ? "moved" : "copied");
        },
        std::move(holds));
}

void Worker::opDelete(const node::DeleteCheckpointOp& op) {
    m_mover.submit([path = op.path] {
        const ckpt::FileOutcome outcome = ckpt::deleteCheckpoint(ckpt::posixFileSystem(), path);
        if (outcome.ok) {
            return std::string();
        }
        return node::encodeEvent(node::Error{outcome.error, path});
    });
}

void Worker::opKill(const node::KillOp& op) {
    RunningTrial* trial = findTrial(op.trial);
    if (!trial) {
        return;  // already gone: its `exited` has been sent
    }
    stopTrial(*trial, "stopping the trial" + (op.reason.empty() ? "" : ": " + op.reason));
}

void Worker::opMonitor(const node::MonitorOp& op) {
    const double seconds = op.intervalS;
    m_usage.setInterval(
        seconds == 0 ? 0 : std::clamp(seconds, kShortestSampleIntervalS, kLongestSampleIntervalS));
}

void Worker::opGpuSharing(const node::GpuSharingOp& op) {
    std::optional<std::string> problem;
    if (op.mode == "time_slicing") {
        m_mps.stop();
    } else if (m_usage.gpus().empty()) {
        problem = "this node offers no GPUs";
    } else {
        problem = m_mps.start();
    }
    m_out.emit(node::GpuSharing{m_mps.running() ? "mps" : "time_slicing", problem});
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
    m_out.emit(node::Error{message, std::nullopt});
}

RunningTrial* Worker::findTrial(const node::TrialId& id) {
    const auto entry = m_trials.find(id.key());
    return entry == m_trials.end() ? nullptr : entry->second.get();
}

}  // namespace tunedeck::worker
