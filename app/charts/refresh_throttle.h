// Coalesces an analysis view's refresh() calls so that its work runs at most once per interval
// however often the data changes, and the last change is never left undrawn. Thread-safety:
// GUI thread only (it owns a QTimer).
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <functional>

namespace tunedeck::app {

class RefreshThrottle {
  public:
    RefreshThrottle(int intervalMs, std::function<void()> work)
        : intervalMs_(intervalMs), work_(std::move(work)) {
        timer_.setSingleShot(true);
        QObject::connect(&timer_, &QTimer::timeout, [this] { run(); });
    }

    // Runs the work now when the interval has passed since it last ran, else once when it has.
    void request() {
        if (!since_.isValid() || since_.elapsed() >= intervalMs_) {
            timer_.stop();
            run();
        } else if (!timer_.isActive()) {
            timer_.start(std::max<int>(0, intervalMs_ - int(since_.elapsed())));
        }
    }
    bool pending() const { return timer_.isActive(); }

  private:
    void run() {
        since_.start();
        work_();
    }

    int intervalMs_;
    std::function<void()> work_;
    QTimer timer_;
    QElapsedTimer since_;
};

}  // namespace tunedeck::app
