// A read on a worker thread whose result counts only while nothing newer was asked for: what a
// read of an experiment's folder brings is stale once another experiment is opened, another
// metric picked or another engine attached. Each owner holds one LatestRead per kind of read;
// start() supersedes the read under way, drop() forgets it. Thread-safety: start() and drop()
// on the GUI thread; `work` runs on its own thread and must touch nothing shared.
#pragma once

#include <QObject>
#include <functional>

namespace tunedeck::app {

class LatestRead {
  public:
    // Runs `work` on a new thread, then `done` on `context`'s thread, unless start() or drop()
    // was called meanwhile or `context` is gone.
    void start(QObject* context, std::function<void()> work, std::function<void()> done);
    void drop() { ++generation_; }
    bool underWay() const { return underWay_ == generation_; }

  private:
    int generation_ = 0;
    int underWay_ = -1;  // the generation of the read not yet landed
};

}  // namespace tunedeck::app
