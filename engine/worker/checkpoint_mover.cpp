#include "worker/checkpoint_mover.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <exception>

#include "worker/json_line.h"

namespace tunedeck::worker {

CheckpointMover::CheckpointMover() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
        m_wakeRead = fds[0];
        m_wakeWrite = fds[1];
    }
    // The thread starts with every signal blocked, so SIGCHLD and friends always interrupt the
    // event loop's poll() and never this thread's file work.
    sigset_t all;
    sigset_t previous;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &previous);
    m_thread = std::thread([this] { runJobs(); });
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

CheckpointMover::~CheckpointMover() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
    ::close(m_wakeRead);
    ::close(m_wakeWrite);
}

void CheckpointMover::submit(Job job) {
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

std::string CheckpointMover::takeFinished() {
    char bytes[256];
    while (::read(m_wakeRead, bytes, sizeof bytes) > 0) {
    }
    std::lock_guard lock(m_mutex);
    std::string finished;
    finished.swap(m_finished);
    return finished;
}

bool CheckpointMover::idle() {
    std::lock_guard lock(m_mutex);
    return m_jobs.empty() && !m_busy && m_finished.empty();
}

void CheckpointMover::runJobs() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
        if (m_jobs.empty()) {
            return;  // stopping, and nothing left to do
        }
        Job job = std::move(m_jobs.front());
        m_jobs.pop_front();
        m_busy = true;
        lock.unlock();
        std::string output;
        try {
            output = job();
        } catch (const std::exception& e) {
            output =
                toLine({{"ev", "error"}, {"message", std::string("checkpoint job: ") + e.what()}});
        }
        lock.lock();
        m_busy = false;
        m_finished += output;
        const char byte = 1;
        [[maybe_unused]] const ssize_t ignored = ::write(m_wakeWrite, &byte, 1);
    }
}

}  // namespace tunedeck::worker
