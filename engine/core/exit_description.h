// How a trial's process ended, as its node said, and the one line that tells the user why: the
// status or signal, and whether it ran out of memory (the kernel's OOM killer, or an
// out-of-memory error in the last lines of its log: Python's MemoryError, C++'s bad_alloc,
// CUDA's "out of memory"). Pure; thread-safe.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

namespace tunedeck {

// What the node said of an exit (none of code and signal: the node was lost, or it never ran).
struct ExitFacts {
    std::optional<int> code;
    std::optional<int> signal;
    bool oomKilled = false;           // the kernel's OOM killer ended it
    std::optional<double> peakRssMb;  // the most resident memory seen, MiB
    QStringList logTail;              // the last lines of its log
    bool isProcessExit() const { return code.has_value() || signal.has_value(); }
    bool isClean() const { return code == 0; }
};

// "exited with status 1", "killed by signal 11 (SIGSEGV)", "out of memory: the kernel's OOM
// killer ended it (signal 9) at 1024 MiB resident", "exited with status 1: out of GPU memory
// (torch.OutOfMemoryError: CUDA out of memory. ...)".
QString describeExit(const ExitFacts& exit);

}  // namespace tunedeck
