#include "runtime/experiment_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <QByteArray>
#include <cerrno>
#include <cstring>

namespace tunedeck {

ExperimentLock::~ExperimentLock() {
    if (fd_ >= 0) {
        ::close(fd_);  // releases the flock
    }
}

Status ExperimentLock::acquire(const QString& experimentFolder) {
    const QByteArray path = (experimentFolder + QStringLiteral("/engine.lock")).toLocal8Bit();
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return Status::ioError(QStringLiteral("cannot open %1: %2")
                                   .arg(QString::fromLocal8Bit(path), strerror(errno)));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char buffer[32] = {};
        const ssize_t n = ::pread(fd, buffer, sizeof(buffer) - 1, 0);
        ::close(fd);
        const QString pid = n > 0 ? QString::fromLatin1(buffer).trimmed() : QStringLiteral("?");
        return Status::busy(
            QStringLiteral("experiment folder %1 is in use by another tunedeck-engine (pid %2)")
                .arg(experimentFolder, pid));
    }
    const QByteArray pid = QByteArray::number(qint64(::getpid())) + '\n';
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.constData(), pid.size(), 0) < 0) {
        // The lock holds regardless; the pid is only shown to a second engine.
    }
    fd_ = fd;
    return Status::ok();
}

}  // namespace tunedeck
