// Runs checkpoint commits and deletions on one background thread, in the order they were asked
// for, so a multi-gigabyte copy never holds back the relay of reports or the heartbeat.
// On an agent that runs its trials as their owner (trial_owner.h), the mover's thread works with
// the owner's file-system identity (setfsuid, setfsgid and its groups, for that thread only):
// the folders it moves, copies and deletes lie in the owner's trial folder, where the trial may
// have put a symbolic link to anywhere, and the kernel then checks every step as it would for
// the owner, never as root.
// submit(), takeFinished() and idle() are for the event loop's thread; jobs run on the mover's.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "worker/trial_owner.h"
#include "worker/wake_pipe.h"

namespace tunedeck::worker {

class CheckpointMover {
  public:
    // A job does its file work and returns the event lines to send (empty: nothing to say).
    using Job = std::function<std::string()>;

    CheckpointMover();
    // Finishes every job already submitted, then joins: a commit is never cut in half.
    ~CheckpointMover();
    CheckpointMover(const CheckpointMover&) = delete;
    CheckpointMover& operator=(const CheckpointMover&) = delete;

    // `holds` names a trial (its key) whose answers wait until this job is done; empty for none.
    void submit(Job job, std::string holds = {});
    // Readable when finished jobs have output waiting; poll it with the loop's other fds.
    int wakeFd() const { return m_wakePipe.readFd(); }
    struct Finished {
        std::string lines;                  // the jobs' output, in order
        std::vector<std::string> released;  // the `holds` of the finished jobs, one per job
    };
    // What the jobs finished since the last call said and released.
    Finished takeFinished();
    bool idle();

  private:
    void runJobs();
    // The owner's file-system identity on this thread; empty on success (or without an owner),
    // else why not.
    std::string actAsOwner() const;

    WakePipe m_wakePipe;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::pair<Job, std::string>> m_jobs;
    Finished m_finished;
    bool m_busy = false;
    bool m_stopping = false;
    std::string m_ownerFailure;  // the agent's owner names no account here
    std::optional<TrialOwner> m_owner;
    std::thread m_thread;
};

}  // namespace tunedeck::worker
