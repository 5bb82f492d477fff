// Runs checkpoint commits and deletions on one background thread, in the order they were asked
// for, so a multi-gigabyte copy never holds back the relay of reports or the heartbeat.
// submit(), takeFinished() and idle() are for the event loop's thread; jobs run on the mover's.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

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

    void submit(Job job);
    // Readable when finished jobs have output waiting; poll it with the loop's other fds.
    int wakeFd() const { return m_wakePipe.readFd(); }
    // The output of the jobs finished since the last call, in order.
    std::string takeFinished();
    bool idle();

  private:
    void runJobs();

    WakePipe m_wakePipe;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_jobs;
    std::string m_finished;
    bool m_busy = false;
    bool m_stopping = false;
    std::thread m_thread;
};

}  // namespace tunedeck::worker
