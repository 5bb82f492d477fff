// Tuning constants of the node agent, kept together so their reasons can be read side by side.
// Compile-time constants: safe to read from any thread.
#pragma once

#include <chrono>
#include <cstddef>

namespace tunedeck::worker {

// PROTOCOL.md's limit for one line on either stream; longer lines are refused, never buffered.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// Deepest nesting relayed from a trial. The engine's JSON parser (Qt's) stops at 1024 levels;
// a line it could not read would be lost silently, so the worker refuses it with a clear error.
inline constexpr int kMaxLineDepth = 512;

// One read() takes hundreds of small report lines at once, so a flood costs few syscalls.
inline constexpr std::size_t kReadChunkBytes = 256 * 1024;

// Above this much unsent output the trial channels are not read: a slow engine then slows the
// trials (their pipes fill up) instead of growing the worker's memory.
inline constexpr std::size_t kOutputHighWaterBytes = std::size_t{8} << 20;

// Capacity asked for the trial -> worker pipe (best effort): fewer wakeups under a report flood.
inline constexpr int kChannelPipeBytes = 256 * 1024;

// PROTOCOL.md: the engine counts a node lost after missing several of these.
inline constexpr std::chrono::milliseconds kHeartbeatInterval{1000};

// PROTOCOL.md: `kill` sends SIGTERM, then SIGKILL this much later; shutdown uses the same grace
// so a trial that saves on SIGTERM gets the same chance either way.
inline constexpr std::chrono::milliseconds kKillGrace{5000};

// How often the agent looks for processes that ended trials left behind (stray_processes.h):
// a look is one read of /proc/self/task/*/children, and a daemon is ended within this of its
// trial's end (at once when the trial's exit is reaped).
inline constexpr std::chrono::milliseconds kStraySweepInterval{1000};

// A process that outlives SIGKILL this long is stuck in the kernel (D state); shutdown stops
// waiting for it rather than keep a dead engine's node busy forever.
inline constexpr std::chrono::milliseconds kReapPatience{5000};

// How much a trial may still have in its pipe once it has exited; a grandchild that escaped the
// process group and keeps writing must not hold the `exited` event back.
inline constexpr std::size_t kDrainOnExitBytes = std::size_t{4} << 20;

// PROTOCOL.md: `exited` carries the last 20 lines of trial.log.
inline constexpr int kLogTailLines = 20;

// Bounds the tail read when a trial prints progress bars that never end a line.
inline constexpr std::size_t kLogTailMaxBytes = 16 * 1024;

// How much of an offending line a `trial_error` quotes.
inline constexpr std::size_t kErrorPreviewBytes = 200;

// Room for the compute processes of one card asked of NVML at first; grown when a card has more,
// up to the most any real card runs (a process per MPS client or MIG slice, in the hundreds).
inline constexpr unsigned int kGpuProcessesFirstAsk = 64;
inline constexpr unsigned int kGpuProcessesMostAsked = 4096;

// How far up a GPU process's parents the agent looks for the trial that started it: deeper trees
// than a launcher, a shell and a few worker layers are not trials of this agent.
inline constexpr int kProcessTreeMaxDepth = 64;

// PROTOCOL.md: `monitor` intervals are clamped to this range. Below 0.1 s the driver's own
// utilisation window (1/6 s to 1 s) is shorter than the step, so readings would repeat; above an
// hour nobody is watching.
inline constexpr double kShortestSampleIntervalS = 0.1;
inline constexpr double kLongestSampleIntervalS = 3600;

}  // namespace tunedeck::worker
