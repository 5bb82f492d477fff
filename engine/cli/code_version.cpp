#include "cli/code_version.h"

#include <unistd.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSaveFile>
#include <algorithm>

namespace tunedeck::cli {

namespace {

struct GitOutput {
    bool ok = false;
    QByteArray out;
    QString error;
};

GitOutput git(const QString& folder, const QStringList& args) {
    QProcess process;
    process.setWorkingDirectory(folder);
    // No pager, no prompt for credentials, the same words whatever the user's language.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral("git"), args);
    GitOutput result;
    if (!process.waitForStarted(kGitTimeoutMs)) {
        result.error = QStringLiteral("git cannot be started: %1").arg(process.errorString());
        return result;
    }
    process.closeWriteChannel();
    if (!process.waitForFinished(kGitTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.error = QStringLiteral("git %1 took longer than %2 s")
                           .arg(args.join(' '))
                           .arg(kGitTimeoutMs / 1000);
        return result;
    }
    result.out = process.readAllStandardOutput();
    result.ok = process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    if (!result.ok) {
        result.error =
            QStringLiteral("git %1: %2")
                .arg(args.join(' '), QString::fromUtf8(process.readAllStandardError()).trimmed());
    }
    return result;
}

Status writeDurably(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);  // a temp file beside it, flushed to disk, renamed over it
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        return Status::ioError(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    }
    return Status::ok();
}

bool isExcluded(const QString& relative, const QStringList& excluded) {
    if (relative.split(QLatin1Char('/')).contains(QStringLiteral("__pycache__"))) {
        return true;  // written by Python as it runs: not what the user wrote
    }
    return std::any_of(excluded.begin(), excluded.end(), [&](const QString& folder) {
        return relative == folder || relative.startsWith(folder + QLatin1Char('/'));
    });
}

// Untracked files of the work tree under `subdir`, copied into code/untracked/ up to the limits.
void keepUntracked(const QString& top, const QString& subdir, const QString& codeDir,
                   const QStringList& excluded, QJsonObject* version) {
    QStringList args{QStringLiteral("ls-files"), QStringLiteral("--others"),
                     QStringLiteral("--exclude-standard"), QStringLiteral("-z")};
    if (!subdir.isEmpty()) {
        args << QStringLiteral("--") << subdir;
    }
    const GitOutput listed = git(top, args);
    QJsonArray links;
    QJsonArray kept;
    QJsonArray skipped;
    qint64 total = 0;
    for (const QByteArray& name : listed.out.split('\0')) {
        const QString path = QString::fromUtf8(name);
        const QString underWorkingDir = subdir.isEmpty() ? path : path.mid(subdir.size() + 1);
        if (path.isEmpty() || isExcluded(underWorkingDir, excluded)) {
            continue;
        }
        const QFileInfo info(top + QLatin1Char('/') + path);
        if (info.isSymLink()) {
            // Kept as the link it is (its target may be a data set, or outside the project): a
            // rerun makes the same link, and the tree is dirty with it.
            const QString target = linkText(info.filePath());
            const QString copy = codeDir + QStringLiteral("/untracked/") + path;
            QDir().mkpath(QFileInfo(copy).absolutePath());
            QFile::link(target, copy);
            links.append(QJsonObject{{"path", path}, {"target", target}});
            continue;
        }
        if (!info.isFile()) {
            continue;
        }
        if (info.size() > kUntrackedFileLimit || total + info.size() > kUntrackedTotalLimit) {
            skipped.append(QJsonObject{{"path", path}, {"bytes", double(info.size())}});
            continue;
        }
        const QString copy = codeDir + QStringLiteral("/untracked/") + path;
        QDir().mkpath(QFileInfo(copy).absolutePath());
        if (QFile::copy(info.absoluteFilePath(), copy)) {
            total += info.size();
            kept.append(path);
        }
    }
    version->insert(QStringLiteral("untracked"), kept);
    version->insert(QStringLiteral("untracked_skipped"), skipped);
    version->insert(QStringLiteral("untracked_links"), links);
}

}  // namespace

QString linkText(const QString& path) {
    QByteArray target(4096, '\0');
    const ssize_t n =
        ::readlink(QFile::encodeName(path).constData(), target.data(), std::size_t(target.size()));
    return n < 0 ? QString() : QFile::decodeName(target.left(n));
}

QString contentHash(const QString& folder, const QStringList& excluded, int* files) {
    QStringList paths;
    QDirIterator it(folder, QDir::Files | QDir::Hidden | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    const QDir root(folder);
    qint64 bytes = 0;
    while (it.hasNext()) {
        const QString relative = root.relativeFilePath(it.next());
        if (!isExcluded(relative, excluded)) {
            paths << relative;
            bytes += it.fileInfo().size();
        }
        if (paths.size() > kHashFileLimit || bytes > kHashByteLimit) {
            if (files != nullptr) {
                *files = int(paths.size());
            }
            return {};
        }
    }
    paths.sort();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString& relative : paths) {
        // The name, its length and the content's, then the content: no two folders collide by
        // moving bytes between a name and a file.
        const QByteArray name = relative.toUtf8();
        QFile file(root.filePath(relative));
        hash.addData(QByteArray::number(name.size()) + ':' + name);
        hash.addData(QByteArray::number(file.size()) + ':');
        if (file.open(QIODevice::ReadOnly)) {
            hash.addData(&file);
        }
    }
    if (files != nullptr) {
        *files = int(paths.size());
    }
    return QStringLiteral("sha256:") + QString::fromLatin1(hash.result().toHex());
}

Status recordCodeVersion(const QString& workingDir, const QString& experimentDir,
                         const QStringList& excluded, QJsonObject* version) {
    const QString codeDir = experimentDir + QStringLiteral("/code");
    QJsonObject v{{"working_dir", workingDir},
                  {"recorded_at", double(QDateTime::currentMSecsSinceEpoch()) / 1000.0}};
    const GitOutput top =
        git(workingDir, {QStringLiteral("rev-parse"), QStringLiteral("--show-toplevel")});
    const GitOutput head =
        top.ok ? git(workingDir, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")})
               : GitOutput{};
    if (top.ok && head.ok) {
        const QString repository = QString::fromUtf8(top.out).trimmed();
        QString subdir = QDir(repository).relativeFilePath(workingDir);
        if (subdir == QLatin1String(".")) {
            subdir.clear();
        }
        const GitOutput branch =
            git(workingDir, {QStringLiteral("symbolic-ref"), QStringLiteral("--short"),
                             QStringLiteral("-q"), QStringLiteral("HEAD")});
        // Staged and unstaged changes of tracked files, against the commit, binary-safe.
        const GitOutput diff = git(repository, {QStringLiteral("diff"), QStringLiteral("--binary"),
                                                QStringLiteral("HEAD")});
        if (!diff.ok) {
            return Status::ioError(diff.error);
        }
        v.insert(QStringLiteral("kind"), QStringLiteral("git"));
        v.insert(QStringLiteral("repository"), repository);
        v.insert(QStringLiteral("subdir"), subdir);
        v.insert(QStringLiteral("commit"), QString::fromUtf8(head.out).trimmed());
        v.insert(QStringLiteral("branch"),
                 branch.ok ? QString::fromUtf8(branch.out).trimmed() : QString());  // detached
        if (!diff.out.isEmpty()) {
            if (Status s = writeDurably(codeDir + QStringLiteral("/diff.patch"), diff.out); !s) {
                return s;
            }
            v.insert(QStringLiteral("diff"), QStringLiteral("diff.patch"));
        }
        v.insert(QStringLiteral("diff_bytes"), double(diff.out.size()));
        keepUntracked(repository, subdir, codeDir, excluded, &v);
        v.insert(QStringLiteral("dirty"), !diff.out.isEmpty() ||
                                              !v.value("untracked").toArray().isEmpty() ||
                                              !v.value("untracked_links").toArray().isEmpty() ||
                                              !v.value("untracked_skipped").toArray().isEmpty());
    } else {
        int files = 0;
        v.insert(QStringLiteral("kind"), QStringLiteral("files"));
        const QString hash = contentHash(workingDir, excluded, &files);
        v.insert(QStringLiteral("content_hash"), hash);
        v.insert(QStringLiteral("files"), files);
        if (hash.isEmpty()) {
            v.insert(QStringLiteral("note"),
                     QStringLiteral("more than %1 files or %2 MiB: not hashed")
                         .arg(kHashFileLimit)
                         .arg(kHashByteLimit >> 20));
        }
        if (top.ok) {  // a repository without a commit yet
            v.insert(QStringLiteral("note"), head.error);
        }
    }
    *version = v;
    return writeDurably(codeDir + QStringLiteral("/version.json"),
                        QJsonDocument(v).toJson(QJsonDocument::Indented));
}

QJsonObject readCodeVersion(const QString& experimentDir) {
    QFile file(experimentDir + QStringLiteral("/code/version.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(file.readAll()).object();
}

}  // namespace tunedeck::cli
