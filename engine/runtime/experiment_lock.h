// One engine per experiment folder: an advisory lock (flock) on <folder>/engine.lock holding the
// owner's pid. The kernel drops it when the owner dies, even by kill -9, so a crashed run never
// blocks its own resume. Not thread-safe; one per process and folder.
#pragma once

#include <QString>

#include "core/status.h"

namespace tunedeck {

class ExperimentLock {
  public:
    ExperimentLock() = default;
    ~ExperimentLock();
    ExperimentLock(const ExperimentLock&) = delete;
    ExperimentLock& operator=(const ExperimentLock&) = delete;

    // Busy, naming the other engine's pid, when someone holds it.
    Status acquire(const QString& experimentFolder);

  private:
    int fd_ = -1;
};

}  // namespace tunedeck
