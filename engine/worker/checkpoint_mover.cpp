#include "worker/checkpoint_mover.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <exception>

#include "worker/json_line.h"

namespace tunedeck::worker {

CheckpointMover::CheckpointMover() : m_thread(startWithSignalsBlocked([this] { runJobs(); })) {}

CheckpointMover::~CheckpointMover() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void CheckpointMover::submit(Job job) {
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

std::string CheckpointMover::takeFinished() {
    m_wakePipe.drain();
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
        m_wakePipe.notify();
    }
}

}  // namespace tunedeck::worker
