#include "cli/experiment_owners.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QSaveFile>

namespace tunedeck::cli {

namespace {

constexpr qint64 kMaxRecordBytes = 256;  // a login name and a newline

}  // namespace

ExperimentOwners::ExperimentOwners(QString resultsRoot, QString defaultOwner)
    : folder_(resultsRoot + QStringLiteral("/.owners")), defaultOwner_(std::move(defaultOwner)) {}

QString ExperimentOwners::ownerOf(const QString& experiment) const {
    const int fd = ::open(QFile::encodeName(folder_ + '/' + experiment).constData(),
                          O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        return defaultOwner_;
    }
    QFile file;
    file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle);
    const QString user = QString::fromUtf8(file.read(kMaxRecordBytes)).trimmed();
    return user.isEmpty() ? defaultOwner_ : user;
}

bool ExperimentOwners::record(const QString& experiment, const QString& user) {
    const QByteArray folder = QFile::encodeName(folder_);
    if (::mkdir(folder.constData(), 0700) != 0 && errno != EEXIST) {
        return false;
    }
    QSaveFile file(folder_ + '/' + experiment);
    return file.open(QIODevice::WriteOnly) && file.write(user.toUtf8() + '\n') > 0 && file.commit();
}

void ExperimentOwners::forget(const QString& experiment) {
    ::unlink(QFile::encodeName(folder_ + '/' + experiment).constData());
}

}  // namespace tunedeck::cli
