#include "worker/worker.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <vector>

#include "worker/inventory.h"
#include "worker/json_line.h"
#include "worker/signal_pipe.h"
#include "worker/tuning.h"

namespace tunedeck::worker {

namespace {

// Fixed slots at the front of the poll set; trial channels follow.
enum Slot : std::size_t { kSignals, kMover, kUsage, kOps, kEvents, kFirstTrialSlot };

}  // namespace

Worker::Worker(int opsFd, int eventsFd)
    : m_readBuffer(kReadChunkBytes),
      m_opsFd(opsFd),
      m_opsFramer(kMaxLineBytes),
      m_out(eventsFd),
      m_signalFd(installSignalPipe()) {}

int Worker::run() {
    if (m_signalFd < 0 || m_mover.wakeFd() < 0 || m_usage.wakeFd() < 0) {
        return 1;
    }
    StrayProcesses::adoptOrphans();  // best effort: without it orphans go to init, as before
    m_cgroups.open();
    m_out.emit(helloEvent(takeInventory(m_usage.gpus(), m_usage.gpuNote())));
    m_out.flush();
    m_nextHeartbeat = Clock::now() + kHeartbeatInterval;
    m_nextStraySweep = m_nextHeartbeat;
    while (!finished(Clock::now())) {
        pollOnce();
    }
    m_strays.endAll([this](pid_t pid) { return m_trialByPid.count(pid) != 0; });
    m_cgroups.endAll();
    m_mps.stop();  // the trials are gone
    m_out.flushBeforeExit(2000);
    return 0;
}

void Worker::pollOnce() {
    std::vector<pollfd>& fds = m_pollFds;
    std::vector<RunningTrial*>& owners = m_pollOwners;
    fds.clear();
    owners.clear();
    fds.push_back({m_signalFd, POLLIN, 0});
    fds.push_back({m_mover.wakeFd(), POLLIN, 0});
    fds.push_back({m_usage.wakeFd(), POLLIN, 0});
    fds.push_back({m_opsOpen ? m_opsFd : -1, POLLIN, 0});
    fds.push_back({m_out.pending() ? m_out.fd() : -1, POLLOUT, 0});
    const bool engineIsBehind = m_out.pendingBytes() > kOutputHighWaterBytes;
    for (auto& [key, trial] : m_trials) {
        if (trial->messageFd >= 0 && !engineIsBehind) {
            fds.push_back({trial->messageFd, POLLIN, 0});
            owners.push_back(trial.get());
        }
        if (trial->answerFd >= 0 && trial->answersWritten < trial->answers.size()) {
            fds.push_back({trial->answerFd, POLLOUT, 0});
            owners.push_back(trial.get());
        }
    }

    const int ready = ::poll(fds.data(), fds.size(), pollTimeoutMs(Clock::now()));
    if (ready < 0 && errno != EINTR) {
        beginShutdown("the worker's poll() failed");
    }
    if (ready > 0) {
        // Trials first: whatever they wrote before exiting is relayed before their `exited`.
        for (std::size_t i = kFirstTrialSlot; i < fds.size(); ++i) {
            RunningTrial& trial = *owners[i - kFirstTrialSlot];
            if (fds[i].revents == 0) {
                continue;
            }
            if (fds[i].fd == trial.messageFd) {
                readTrial(trial);
            } else if (fds[i].fd == trial.answerFd) {
                writeAnswers(trial);
            }
        }
        if (fds[kSignals].revents) {
            const PendingSignals signals = drainSignalPipe(m_signalFd);
            if (signals.childExited) {
                reapChildren();
            }
            if (signals.shutdownAsked) {
                beginShutdown("the worker received a termination signal");
            }
        }
        if (fds[kMover].revents) {
            CheckpointMover::Finished finished = m_mover.takeFinished();
            m_out.appendRaw(finished.lines);
            for (const std::string& key : finished.released) {
                releaseAnswers(key);
            }
        }
        if (fds[kUsage].revents) {
            m_out.appendRaw(m_usage.takeLines());
        }
        if (fds[kOps].revents) {
            readOps();
        }
    }
    onTimers(Clock::now());
    // Answers queued by this iteration's ops go out now, one write per trial.
    for (auto& [key, trial] : m_trials) {
        if (trial->answersWritten < trial->answers.size()) {
            writeAnswers(*trial);
        }
    }
    m_out.flush();
    if (m_out.broken()) {
        beginShutdown("the engine closed the node link");
    }
}

int Worker::pollTimeoutMs(Clock::time_point now) const {
    Clock::time_point next = std::min(m_nextHeartbeat, m_nextStraySweep);
    for (const auto& [key, trial] : m_trials) {
        if (trial->killAt) {
            next = std::min(next, *trial->killAt);
        }
    }
    if (m_shuttingDown) {
        next = std::min(next, m_giveUpAt);
    }
    if (next <= now) {
        return 0;
    }
    // Rounded up, so the loop never wakes a hair early and spins.
    return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(next - now).count());
}

void Worker::readOps() {
    const ssize_t n = ::read(m_opsFd, m_readBuffer.data(), m_readBuffer.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return;
    }
    if (n <= 0) {
        m_opsOpen = false;
        const std::string last = m_opsFramer.takePartial();
        if (!last.empty()) {
            handleOpLine(last);  // the engine's last op may lack its newline
        }
        beginShutdown("the engine closed the node link");
        return;
    }
    m_opsFramer.feed(
        std::string_view(m_readBuffer.data(), static_cast<std::size_t>(n)),
        [this](std::string_view line) { return handleOpLine(line); },
        [this] {
            reportError("an op line is longer than 1 MiB; it was skipped");
            return true;
        });
}

void Worker::onTimers(Clock::time_point now) {
    if (now >= m_nextHeartbeat) {
        m_out.emit(node::Heartbeat{unixSeconds()});
        m_nextHeartbeat += kHeartbeatInterval;
        if (m_nextHeartbeat <= now) {
            m_nextHeartbeat = now + kHeartbeatInterval;  // after a stall, no burst of catch-ups
        }
    }
    for (auto& [key, trial] : m_trials) {
        if (trial->killAt && now >= *trial->killAt) {
            ::kill(-trial->pid, SIGKILL);
            m_cgroups.signal(trial->token, SIGKILL);
            trial->killAt.reset();
            trial->killed = true;
        }
    }
    if (now >= m_nextStraySweep) {
        sweepStrays(now);
    }
}

void Worker::sweepStrays(Clock::time_point now) {
    m_nextStraySweep = now + kStraySweepInterval;
    m_cgroups.sweep();
    m_strays.sweep(
        now,
        [this](const std::string& token) {
            for (const auto& [key, trial] : m_trials) {
                if (trial->token == token) {
                    return true;
                }
            }
            return false;
        },
        [this](pid_t pid) { return m_trialByPid.count(pid) != 0; });
}

bool Worker::finished(Clock::time_point now) {
    if (!m_shuttingDown || !m_mover.idle()) {
        return false;
    }
    return m_trials.empty() || now >= m_giveUpAt;
}

}  // namespace tunedeck::worker
