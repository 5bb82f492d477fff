// What the agent's background threads (checkpoint moves, usage sampling) share: a non-blocking
// pipe on which the thread tells the event loop it has news, and a start with every signal
// blocked, so SIGCHLD and friends always interrupt the loop's poll() and never the thread's
// work. notify() is safe from any thread; drain() only from the loop's.
#pragma once

#include <functional>
#include <thread>

namespace tunedeck::worker {

class WakePipe {
  public:
    WakePipe();
    ~WakePipe();
    WakePipe(const WakePipe&) = delete;
    WakePipe& operator=(const WakePipe&) = delete;

    int readFd() const { return m_read; }  // what the event loop polls
    void notify();                         // one byte; a full pipe already says it
    void drain();                          // forgets every byte so far

  private:
    int m_read = -1;
    int m_write = -1;
};

// Starts `body` on a new thread with every signal blocked in it.
std::thread startWithSignalsBlocked(std::function<void()> body);

}  // namespace tunedeck::worker
