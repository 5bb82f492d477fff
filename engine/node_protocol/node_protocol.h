// The node protocol: every message the engine (the head) and a node's worker agent
// (tunedeck-worker) exchange over the node link, one JSON object per line, as typed values. The
// head sends ops ({"op": NAME, ...}), the agent answers with events ({"ev": NAME, ...}). Both
// sides compile this one header and its .cpp, so they cannot disagree on a name or a field.
// Plain C++ (nlohmann/json only), no Qt: the agent is copied to nodes without Qt.
// Decoding never throws: a malformed line gives a DecodeError naming the message and the field,
// and the side that read it reports that and carries on. Pure functions; thread-safe.
//
// Two payloads belong to the trial protocol (engine/sdk/PROTOCOL.md), not to this one, and travel
// as JSON text untouched: a trial's line relayed by the agent (TrialLine::msg) and the engine's
// answer to it (AnswerOp::answer).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tunedeck::node {

// A trial's id on a node: a non-empty string (what the engine sends) or an integer, echoed back
// in every event exactly as it was given.
struct TrialId {
    std::string text;  // the string, or the integer's decimal digits
    bool integer = false;

    TrialId() = default;
    TrialId(std::string id) : text(std::move(id)) {}  // NOLINT: ids are strings on the head
    // The id as JSON text: unique per id, a key for maps.
    std::string key() const;
    bool operator==(const TrialId& other) const {
        return text == other.text && integer == other.integer;
    }
    bool operator!=(const TrialId& other) const { return !(*this == other); }
};

// ---- ops: head -> agent ----------------------------------------------------------------------

// Starts a trial process (or a rank of a gang trial).
struct StartOp {
    TrialId trial;
    std::vector<std::string> argv;  // not empty
    // Variables set in the trial's environment; no value: unset there.
    std::vector<std::pair<std::string, std::optional<std::string>>> env;
    std::optional<std::string> cwd;
    std::string trialDir;                  // where its log goes; not empty
    std::optional<std::string> logPrefix;  // put before each of its log lines (a gang's rank)
    // An address of another node: the agent sets GLOO_SOCKET_IFNAME and NCCL_SOCKET_IFNAME to
    // the interface that reaches it.
    std::optional<std::string> interfaceFor;
    // Variables the agent fills with a free TCP port of its node (answered in StartedEvent).
    std::vector<std::string> freePorts;
    bool operator==(const StartOp&) const;
};

// The engine's answer to a trial's line, written to the trial's channel.
struct AnswerOp {
    TrialId trial;
    std::string answer;  // a JSON object, text of the trial protocol
    // Read from `answer` on decode: the folder a save or pause names, which the agent prepares
    // before the trial writes into it. Not encoded (it is inside `answer`).
    std::string savePath;
    bool operator==(const AnswerOp&) const;
};

// A folder the handover of a trial's checkpoint folder must not take along
// (engine/checkpoint/handover.h).
struct ProtectedFolder {
    std::string path;
    std::string what;  // how an error names it
    bool operator==(const ProtectedFolder&) const;
};

// Puts a checkpoint in place on the node: `from` becomes `to`, with `manifest` written into it.
struct CommitCheckpointOp {
    std::optional<TrialId> trial;
    std::string from;
    std::string to;
    std::string manifest;  // a JSON object, as text
    // "engine": the scratch folder of a save the engine asked for (moved); "trial": a folder the
    // trial named in a report (moved, copied or refused by handover.h's rule).
    std::string handover = "engine";
    std::optional<std::string> trialDir;
    std::vector<ProtectedFolder> protect;
    bool operator==(const CommitCheckpointOp&) const;
};

struct DeleteCheckpointOp {
    std::string path;  // not empty
    bool operator==(const DeleteCheckpointOp&) const;
};

// SIGTERM to the trial's process group, SIGKILL after the agent's grace period.
struct KillOp {
    TrialId trial;
    std::string reason;  // written to the trial's log
    bool operator==(const KillOp&) const;
};

// Samples of the node's usage every `intervalS` seconds; 0 stops them.
struct MonitorOp {
    double intervalS = 0;
    bool operator==(const MonitorOp&) const;
};

// How the node's GPUs are shared: "mps" (the agent starts an MPS daemon) or "time_slicing".
struct GpuSharingOp {
    std::string mode;
    bool operator==(const GpuSharingOp&) const;
};

// The agent stops its trials and exits.
struct ShutdownOp {
    bool operator==(const ShutdownOp&) const { return true; }
};

using Op = std::variant<StartOp, AnswerOp, CommitCheckpointOp, DeleteCheckpointOp, KillOp,
                        MonitorOp, GpuSharingOp, ShutdownOp>;

// ---- events: agent -> head -------------------------------------------------------------------

struct HelloGpu {
    int index = 0;
    std::string uuid;
    std::string name;
    std::int64_t memoryMb = 0;
    bool operator==(const HelloGpu&) const;
};

// The agent's first line: who it is and what the node offers.
struct Hello {
    std::string version;
    std::string commit;
    std::int64_t pid = 0;
    std::string hostname;
    int cpus = 1;
    std::int64_t memoryMb = 0;
    std::vector<HelloGpu> gpus;
    std::string gpuNote;  // why fewer GPUs are offered than the node may have; empty when none
    bool operator==(const Hello&) const;
};

// Every second, so the head can tell a silent node from a lost one.
struct Heartbeat {
    double time = 0;  // Unix seconds of the node's clock
    bool operator==(const Heartbeat&) const;
};

struct Started {
    TrialId trial;
    std::int64_t pid = 0;
    std::map<std::string, int> ports;  // the free ports StartOp::freePorts asked for
    bool operator==(const Started&) const;
};

// A line of the trial's channel, relayed as the trial wrote it.
struct TrialLine {
    TrialId trial;
    std::string msg;  // a JSON object, text of the trial protocol
    bool operator==(const TrialLine&) const;
};

// The trial broke the channel's rules; the agent has killed it and `Exited` follows.
struct TrialError {
    TrialId trial;
    std::string message;
    bool operator==(const TrialError&) const;
};

struct Exited {
    TrialId trial;
    std::optional<int> code;    // its exit status, when it exited
    std::optional<int> signal;  // the signal that killed it, when one did
    bool oomKilled = false;
    std::optional<double> peakRssMb;
    std::vector<std::string> logTail;  // the last lines of its log
    bool operator==(const Exited&) const;
};

// The outcome of a CommitCheckpointOp.
struct Committed {
    std::optional<TrialId> trial;
    std::string to;
    bool ok = false;
    std::optional<std::string> handover;  // "moved", "copied" or "refused"
    std::optional<std::string> error;     // why not, when !ok
    bool operator==(const Committed&) const;
};

// Something the agent could not do or understand (a malformed op, a failed delete).
struct Error {
    std::string message;
    std::optional<std::string> path;  // the folder a failed delete_checkpoint named
    bool operator==(const Error&) const;
};

struct GpuUsage {
    int index = 0;
    std::string uuid;
    std::string name;
    std::optional<double> utilizationPercent;
    std::int64_t memoryUsedMb = 0;
    std::int64_t memoryTotalMb = 0;
    std::optional<double> temperatureC;
    std::optional<double> powerW;
    std::vector<TrialId> trials;  // whose processes use the card
    bool lost = false;
    bool operator==(const GpuUsage&) const;
};

struct TrialUsage {
    TrialId trial;
    std::optional<double> cpuPercent;
    double rssMb = 0;
    int processes = 0;
    std::optional<std::int64_t> gpuMemoryMb;  // absent on a node without GPUs
    // Set by the head, never by an agent: the rank of a gang trial's process.
    std::optional<int> rank;
    bool operator==(const TrialUsage&) const;
};

// A sample of the node's CPU, memory and GPUs (MonitorOp).
struct Usage {
    double time = 0;
    std::optional<double> cpuPercent;
    std::int64_t memoryUsedMb = 0;
    std::int64_t memoryTotalMb = 0;
    std::vector<GpuUsage> gpus;
    std::vector<TrialUsage> trials;
    bool operator==(const Usage&) const;
};

// A card stopped answering; the agent no longer samples it.
struct GpuLost {
    int index = 0;
    std::string uuid;
    std::string reason;
    bool operator==(const GpuLost&) const;
};

// The answer to GpuSharingOp: the mode in effect, and why it is not the one asked for.
struct GpuSharing {
    std::string mode;
    std::optional<std::string> reason;
    bool operator==(const GpuSharing&) const;
};

using Event = std::variant<Hello, Heartbeat, Started, TrialLine, TrialError, Exited, Committed,
                           Error, Usage, GpuLost, GpuSharing>;

// ---- encoding and decoding ---------------------------------------------------------------------

// Why a line is not a message. `message` names the message and the field ("start: \"argv\" must
// be a non-empty array of strings"); what could be read is kept so the reader can still answer.
struct DecodeError {
    std::string message;
    std::string name;               // the op or event name, when the line had one
    std::optional<TrialId> trial;   // the trial it named, when that was readable
    std::optional<std::string> to;  // commit_checkpoint's "to", when readable
};

template <class T>
struct Decoded {
    std::optional<T> value;
    DecodeError error;  // when there is no value
    explicit operator bool() const { return value.has_value(); }
};

// One JSON line, with its '\n'. Invalid UTF-8 in a text becomes U+FFFD; never throws.
std::string encodeOp(const Op& op);
std::string encodeEvent(const Event& event);

// `line` with or without its '\n'.
Decoded<Op> decodeOp(std::string_view line);
Decoded<Event> decodeEvent(std::string_view line);

// The trial an event is about; null for the node's own events (hello, heartbeat, usage ...).
const TrialId* trialOf(const Event& event);

// The "op" or "ev" name of a message.
const char* nameOf(const Op& op);
const char* nameOf(const Event& event);

// What the agent puts before a trial's line to relay it as a TrialLine without parsing it again:
// {"ev":"trial","trial":ID,"msg": ... and "}\n" after it.
std::string trialLinePrefix(const TrialId& trial);
inline constexpr std::string_view kTrialLineSuffix = "}\n";

}  // namespace tunedeck::node
