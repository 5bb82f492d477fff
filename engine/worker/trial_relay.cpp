// The trial side of the loop: relaying each valid line of a trial's channel to the engine,
// refusing protocol violations, writing answers, stopping trials and reporting how they ended.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>

#include "worker/json_line.h"
#include "worker/log_tail.h"
#include "worker/trial_process.h"
#include "worker/tuning.h"
#include "worker/worker.h"

namespace tunedeck::worker {

namespace {

void closeFd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

}  // namespace

void Worker::readTrial(RunningTrial& trial) {
    const ssize_t n = ::read(trial.messageFd, m_readBuffer.data(), m_readBuffer.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
        return;
    }
    if (n <= 0) {
        // The trial closed its end; it may still run. Its exit is learnt from SIGCHLD.
        drainAndClose(trial);
        return;
    }
    trial.framer.feed(
        std::string_view(m_readBuffer.data(), static_cast<std::size_t>(n)),
        [this, &trial](std::string_view line) { return relayLine(trial, line); },
        [this, &trial] {
            failTrial(trial, "the trial wrote a line longer than 1 MiB");
            return false;
        });
}

bool Worker::relayLine(RunningTrial& trial, std::string_view line) {
    ++trial.lineNumber;
    const std::string_view body = trimmed(line);
    if (body.empty()) {
        return true;  // a stray blank line carries nothing; not worth killing a trial over
    }
    std::string detail;
    const LineCheck check = checkObjectLine(line, kMaxLineDepth, &detail);
    if (check != LineCheck::Object) {
        const std::string where =
            "line " + std::to_string(trial.lineNumber) + " of the trial channel ";
        if (check == LineCheck::ForbiddenByte || check == LineCheck::UnreadableNumber) {
            // The line may hold bytes a terminal should not see; the detail says what is wrong.
            failTrial(trial, where + "holds " + detail + ", which the engine cannot read");
            return false;
        }
        const char* what = check == LineCheck::NotAnObject ? "is not a JSON object"
                           : check == LineCheck::TooDeep   ? "is nested too deeply"
                                                           : "is not JSON";
        failTrial(trial, where + what + ": " + std::string(preview(body, kErrorPreviewBytes)));
        return false;
    }
    // Relayed verbatim: the text was just validated, so re-serialising it would only cost time.
    m_out.appendRaw(trial.relayPrefix);
    m_out.appendRaw(body);
    m_out.appendRaw(node::kTrialLineSuffix);
    return true;
}

void Worker::failTrial(RunningTrial& trial, const std::string& message) {
    m_out.emit(node::TrialError{trial.id, message});
    appendToTrialLog(trial.logPath, message);
    trial.brokeProtocol = true;
    closeFd(trial.messageFd);
    ::kill(-trial.pid, SIGKILL);
    m_cgroups.signal(trial.token, SIGKILL);
    trial.killAt.reset();
    trial.killed = true;
}

void Worker::stopTrial(RunningTrial& trial, const std::string& reason) {
    if (trial.killed || trial.killAt) {
        return;  // already on its way out
    }
    appendToTrialLog(trial.logPath, reason);
    ::kill(-trial.pid, SIGTERM);
    m_cgroups.signal(trial.token, SIGTERM);
    trial.killAt = Clock::now() + kKillGrace;
}

void Worker::writeAnswers(RunningTrial& trial) {
    while (trial.answerFd >= 0 && trial.answersWritten < trial.answers.size()) {
        const ssize_t n = ::write(trial.answerFd, trial.answers.data() + trial.answersWritten,
                                  trial.answers.size() - trial.answersWritten);
        if (n > 0) {
            trial.answersWritten += static_cast<std::size_t>(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;  // the loop polls for POLLOUT
        } else {
            // The trial stopped reading (exited, or closed its end): its answers have no reader.
            closeFd(trial.answerFd);
        }
    }
    trial.answers.clear();
    trial.answersWritten = 0;
}

void Worker::reapChildren() {
    for (;;) {
        siginfo_t info{};
        // WNOWAIT leaves the child a zombie, so its pid (its group's id) cannot be reused while
        // the rest of the group is killed and its last lines are read.
        if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) {
            return;
        }
        const pid_t pid = info.si_pid;
        const auto byPid = m_trialByPid.find(pid);
        const auto entry =
            byPid == m_trialByPid.end() ? m_trials.end() : m_trials.find(byPid->second);
        if (entry != m_trials.end()) {
            // Whatever the trial left behind in its group or its cgroup (data loaders, helpers,
            // daemons) goes with it, so nothing keeps holding the node's GPUs.
            ::kill(-pid, SIGKILL);
            m_cgroups.end(entry->second->token);
            drainAndClose(*entry->second);
        }
        int status = 0;
        rusage usage{};
        pid_t reaped;
        do {
            reaped = ::wait4(pid, &status, 0, &usage);
        } while (reaped < 0 && errno == EINTR);
        double sampledPeakMb = 0;
        if (byPid != m_trialByPid.end()) {
            m_trialByPid.erase(byPid);
            sampledPeakMb = m_usage.trialEnded(pid);
        }
        if (entry != m_trials.end() && reaped == pid) {
            // The kernel's figure covers the trial's process and those it waited for; the samples
            // cover its whole group at once (data loaders side by side) but only every interval.
            const double reapedPeakMb = static_cast<double>(usage.ru_maxrss) / 1024.0;
            reportExit(*entry->second, status, std::max(sampledPeakMb, reapedPeakMb));
            m_trials.erase(entry);
            sweepStrays(Clock::now());  // what it left behind goes now, not a second later
        }
    }
}

void Worker::reportExit(RunningTrial& trial, int status, double peakResidentMb) {
    closeFd(trial.answerFd);
    node::Exited exited;
    exited.trial = trial.id;
    if (WIFEXITED(status)) {
        exited.code = WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        exited.signal = WTERMSIG(status);
    }
    // A SIGKILL the agent did not send, while the kernel's count of OOM kills grew: out of memory.
    exited.oomKilled = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && !trial.killed &&
                       oomKillsGrew(trial.oomBefore);
    exited.peakRssMb = std::round(peakResidentMb * 10) / 10;
    exited.logTail = readLogTail(trial.logPath, kLogTailLines, kLogTailMaxBytes);
    m_out.emit(exited);
}

void Worker::drainAndClose(RunningTrial& trial) {
    std::size_t drained = 0;
    while (trial.messageFd >= 0 && drained < kDrainOnExitBytes) {
        const ssize_t n = ::read(trial.messageFd, m_readBuffer.data(), m_readBuffer.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        drained += static_cast<std::size_t>(n);
        trial.framer.feed(
            std::string_view(m_readBuffer.data(), static_cast<std::size_t>(n)),
            [this, &trial](std::string_view line) { return relayLine(trial, line); },
            [this, &trial] {
                failTrial(trial, "the trial wrote a line longer than 1 MiB");
                return false;
            });
    }
    if (trial.messageFd >= 0) {
        // A last line without its newline still counts: the trial ended, the line is whole.
        const std::string last = trial.framer.takePartial();
        if (!last.empty()) {
            relayLine(trial, last);
        }
    }
    closeFd(trial.messageFd);
}

}  // namespace tunedeck::worker
