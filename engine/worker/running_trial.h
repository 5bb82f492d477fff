// The worker's record of one trial process it started: its channel, its pending answers and
// where it is in being stopped. Owned by the event loop; not thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "core/line_framer.h"
#include "node_protocol/node_protocol.h"
#include "worker/oom_watch.h"
#include "worker/tuning.h"

namespace tunedeck::worker {

struct RunningTrial {
    node::TrialId id;         // echoed in every event exactly as the engine sent it
    std::string relayPrefix;  // node::trialLinePrefix(id), built once
    pid_t pid = -1;           // also the process group's id
    std::string token;        // in its environment and its descendants' (stray_processes.h)
    std::string logPath;
    OomCounts oomBefore;  // the kernel's OOM kill counts when it started

    int messageFd = -1;  // -1 once the trial closed it or broke the protocol
    LineFramer framer{kMaxLineBytes};
    std::uint64_t lineNumber = 0;
    bool brokeProtocol = false;  // its output is ignored from then on; `exited` follows

    int answerFd = -1;  // -1 once the trial stopped reading
    std::string answers;
    std::size_t answersWritten = 0;
    // A folder the trial handed over is being taken (moved or copied): its answers wait, so the
    // trial cannot change or delete the folder before the engine has it (Ray's report() too
    // returns only once the checkpoint is persisted).
    int handoversInFlight = 0;
    std::string heldAnswers;

    // When SIGKILL follows the SIGTERM already sent; empty while nobody asked it to stop.
    std::optional<std::chrono::steady_clock::time_point> killAt;
    bool killed = false;  // SIGKILL sent
};

}  // namespace tunedeck::worker
