#include "worker/checkpoint_mover.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <utility>

#include "node_protocol/node_protocol.h"

namespace tunedeck::worker {

CheckpointMover::CheckpointMover()
    : m_owner(checkpoint::ownerFromEnvironment(&m_ownerFailure)),
      m_thread(startWithSignalsBlocked([this] { runJobs(); })) {}

CheckpointMover::~CheckpointMover() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void CheckpointMover::submit(Job job, std::string holds) {
    {
        std::lock_guard lock(m_mutex);
        m_jobs.emplace_back(std::move(job), std::move(holds));
    }
    m_wake.notify_one();
}

CheckpointMover::Finished CheckpointMover::takeFinished() {
    m_wakePipe.drain();
    std::lock_guard lock(m_mutex);
    return std::exchange(m_finished, {});
}

bool CheckpointMover::idle() {
    std::lock_guard lock(m_mutex);
    return m_jobs.empty() && !m_busy && m_finished.lines.empty() && m_finished.released.empty();
}

std::string CheckpointMover::actAsOwner() const {
    const std::optional<TrialOwner>& owner = m_owner;
    if (!m_ownerFailure.empty() || !owner) {
        return m_ownerFailure;
    }
    return takeFileIdentity(*owner);
}

void CheckpointMover::runJobs() {
    // Jobs never run with more rights than the trials whose folders they touch.
    const std::string ownerFailure = actAsOwner();
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
        if (m_jobs.empty()) {
            return;  // stopping, and nothing left to do
        }
        auto [job, holds] = std::move(m_jobs.front());
        m_jobs.pop_front();
        m_busy = true;
        lock.unlock();
        std::string output;
        try {
            output = ownerFailure.empty()
                         ? job()
                         : node::encodeEvent(node::Error{
                               "checkpoint work refused: it cannot run as the trials' owner (" +
                                   ownerFailure + ")",
                               std::nullopt});
        } catch (const std::exception& e) {
            output = node::encodeEvent(
                node::Error{std::string("checkpoint job: ") + e.what(), std::nullopt});
        }
        lock.lock();
        m_busy = false;
        m_finished.lines += output;
        if (!holds.empty()) {
            m_finished.released.push_back(std::move(holds));
        }
        m_wakePipe.notify();
    }
}

}  // namespace tunedeck::worker
