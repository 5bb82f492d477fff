#include "config/input_limits.h"

#include <QFile>
#include <QFileInfo>

namespace tunedeck {

QString inputLimitsScope() {
    return QStringLiteral("experiment, cluster and search-space files");
}

QString inputPathsProblem(const InputLimits& limits) {
    return QStringLiteral(
               "keys nested this long and this deep: the paths of the values (every key from "
               "the top, as in a.b.c) add up to more than %1 bytes (the limit for %2)")
        .arg(limits.maxPathBytes)
        .arg(inputLimitsScope());
}

std::optional<QString> inputSizeProblem(qsizetype byteCount, const InputLimits& limits) {
    if (byteCount <= limits.maxBytes) {
        return std::nullopt;
    }
    return QStringLiteral("the file is %1 bytes; %2 may hold at most %3 bytes")
        .arg(byteCount)
        .arg(inputLimitsScope())
        .arg(limits.maxBytes);
}

Status readInputFileBytes(const QString& path, QByteArray* out, const InputLimits& limits) {
    if (path.contains(QChar(0))) {
        return Status::invalid(
            QStringLiteral("cannot read: a path cannot contain a NUL character"));
    }
    const QFileInfo info(path);
    if (!info.exists()) {
        return Status::notFound(QStringLiteral("no such file"));
    }
    if (info.isDir()) {
        return Status::invalid(QStringLiteral("cannot read: is a folder"));
    }
    // Only a regular file has a size to trust; opening a FIFO would block until a writer came.
    if (!info.isFile()) {
        return Status::invalid(QStringLiteral("cannot read: not a regular file"));
    }
    if (const auto tooLarge = inputSizeProblem(info.size(), limits)) {
        return Status::invalid(*tooLarge);
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Status::ioError(QStringLiteral("cannot read: %1").arg(file.errorString()));
    }
    // The size may have grown since it was checked; one byte more says so.
    *out = file.read(limits.maxBytes + 1);
    if (const auto tooLarge = inputSizeProblem(out->size(), limits)) {
        out->clear();
        return Status::invalid(*tooLarge);
    }
    return Status::ok();
}

}  // namespace tunedeck
