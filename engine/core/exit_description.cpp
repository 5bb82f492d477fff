#include "core/exit_description.h"

#include <csignal>

namespace tunedeck {

namespace {

QString signalName(int signal) {
    switch (signal) {
        case SIGKILL:
            return QStringLiteral("SIGKILL");
        case SIGTERM:
            return QStringLiteral("SIGTERM");
        case SIGSEGV:
            return QStringLiteral("SIGSEGV");
        case SIGABRT:
            return QStringLiteral("SIGABRT");
        case SIGBUS:
            return QStringLiteral("SIGBUS");
        case SIGFPE:
            return QStringLiteral("SIGFPE");
        case SIGILL:
            return QStringLiteral("SIGILL");
        case SIGINT:
            return QStringLiteral("SIGINT");
        case SIGPIPE:
            return QStringLiteral("SIGPIPE");
        default:
            return {};
    }
}

QString megabytes(double mb) {
    return QStringLiteral("%1 MiB").arg(mb, 0, 'f', 0);
}

// The last line of the log that reports running out of memory, and whether it is the GPU's.
struct MemoryError {
    QString line;
    bool gpu = false;
};

std::optional<MemoryError> memoryErrorIn(const QStringList& logTail) {
    for (auto line = logTail.crbegin(); line != logTail.crend(); ++line) {
        const QString text = line->trimmed();
        if (text.contains(QLatin1String("CUDA out of memory"), Qt::CaseInsensitive) ||
            text.contains(QLatin1String("CUDA_ERROR_OUT_OF_MEMORY")) ||
            text.contains(QLatin1String("cudaErrorMemoryAllocation"))) {
            return MemoryError{text, true};
        }
        if (text.startsWith(QLatin1String("MemoryError")) ||
            text.contains(QLatin1String("std::bad_alloc")) ||
            text.contains(QLatin1String("Cannot allocate memory"))) {
            return MemoryError{text, false};
        }
    }
    return std::nullopt;
}

}  // namespace

QString describeExit(const ExitFacts& exit) {
    const QString peak = exit.peakRssMb && *exit.peakRssMb > 0
                             ? QStringLiteral(" at %1 resident").arg(megabytes(*exit.peakRssMb))
                             : QString();
    if (exit.oomKilled) {
        return QStringLiteral("out of memory: the kernel's OOM killer ended it (signal %1)%2")
            .arg(exit.signal.value_or(SIGKILL))
            .arg(peak);
    }
    QString how;
    if (exit.signal) {
        const QString name = signalName(*exit.signal);
        how = name.isEmpty()
                  ? QStringLiteral("killed by signal %1").arg(*exit.signal)
                  : QStringLiteral("killed by signal %1 (%2)").arg(*exit.signal).arg(name);
    } else {
        how = QStringLiteral("exited with status %1").arg(exit.code.value_or(0));
    }
    if (const std::optional<MemoryError> error = memoryErrorIn(exit.logTail)) {
        constexpr int kQuoted = 160;
        const QString quoted =
            error->line.size() > kQuoted ? error->line.left(kQuoted) + QChar(0x2026) : error->line;
        how += error->gpu ? QStringLiteral(": out of GPU memory (%1)").arg(quoted)
                          : QStringLiteral(": out of memory%1 (%2)").arg(peak, quoted);
    }
    return how;
}

}  // namespace tunedeck
