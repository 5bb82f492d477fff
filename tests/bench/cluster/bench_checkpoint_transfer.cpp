// Checkpoint transfer benchmark: a realistic checkpoint mix (a few large shards and many small
// files, random bytes) copied head -> node and back node -> head through SftpClient over ONE
// SSH session, against `scp -r` of the same files to the same sshd in the same run, interleaved
// (this machine is shared and noisy: medians of repeated runs, and their ratio). The node is the
// test's sshd on 127.0.0.1, so the figures measure the SSH/SFTP path, not a network.
//
//   bench_checkpoint_transfer [--repeats N] [--large N] [--large-mb N] [--small N]
//                             [--small-kb N] [--chunk-kb N] [--in-flight-mb N] [--files N]
//                             [--scp-cipher NAME] [--smoke]
// (--scp-cipher gives scp the cipher libssh2 negotiated, e.g. aes128-ctr, to compare like with
// like; by default scp uses OpenSSH's own choice, chacha20-poly1305.)
//
// Defaults: 4 x 40 MB + 200 x 200 KB (~200 MB), 5 repeats. `--smoke` runs a few MB once (used by
// ctest so that the benchmark keeps working; no figure is asserted).
#include <algorithm>
#include <cstdio>
#include <vector>

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTimer>

#include "cluster/ssh/sftp_client.h"
#include "cluster/ssh/ssh_session.h"
#include "median.h"
#include "sshd_fixture.h"

using namespace tunedeck::ssh;

namespace {

struct Options {
    int repeats = 5;
    int largeFiles = 4;
    qint64 largeBytes = 40LL * 1024 * 1024;
    int smallFiles = 200;
    qint64 smallBytes = 200 * 1024;
    SftpClient::Tuning tuning;
    QString scpCipher;
    bool smoke = false;
};

// Sleeps in the event dispatcher between events: waiting must not take CPU from the transfer.
bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    QTimer wake;
    wake.start(50);
    while (!done() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return done();
}

bool writeRandom(const QString& path, qint64 size) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return false;
    }
    QByteArray block(4 * 1024 * 1024, Qt::Uninitialized);
    for (qint64 left = size; left > 0;) {
        const qint64 n = qMin<qint64>(left, block.size());
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(block.data()),
                                              block.size() / 4);
        if (file.write(block.constData(), n) != n) {
            return false;
        }
        left -= n;
    }
    return true;
}

// relative path -> SHA-256, to check that a copy is byte for byte the original.
QMap<QString, QByteArray> digestTree(const QString& root) {
    QMap<QString, QByteArray> digests;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(&file);
        digests[QDir(root).relativeFilePath(path)] = hash.result();
    }
    return digests;
}

// Seconds taken by `scp -r from to`, or -1 when it failed.
double timeScp(const SshdFixture& sshd, const QString& knownHosts, const QString& cipher,
               const QString& from, const QString& to) {
    QProcess scp;
    scp.setProcessChannelMode(QProcess::MergedChannels);
    QStringList arguments = {"-q", "-r",
                             "-o", "BatchMode=yes",
                             "-o", "StrictHostKeyChecking=yes",
                             "-o", "UserKnownHostsFile=" + knownHosts,
                             "-i", sshd.userKeyPath(),
                             "-P", QString::number(sshd.port())};
    if (!cipher.isEmpty()) {
        arguments += {"-c", cipher};
    }
    QElapsedTimer clock;
    clock.start();
    scp.start("scp", arguments + QStringList{from, to});
    if (!scp.waitForFinished(600000) || scp.exitCode() != 0) {
        std::fprintf(stderr, "scp failed: %s\n", scp.readAll().constData());
        return -1;
    }
    return clock.nsecsElapsed() / 1e9;
}

// Seconds taken by one SftpClient call (putTree or getTree), or -1 when it failed.
double timeOurs(const std::function<void(SftpClient::Done)>& call) {
    bool done = false;
    bool ok = false;
    QString error;
    QElapsedTimer clock;
    clock.start();
    call([&](bool success, const QString& message) {
        done = true;
        ok = success;
        error = message;
    });
    if (!waitUntil([&] { return done; }, 600000) || !ok) {
        std::fprintf(stderr, "SftpClient failed: %s\n", qPrintable(error));
        return -1;
    }
    return clock.nsecsElapsed() / 1e9;
}

bool parse(const QStringList& args, Options* options) {
    for (int i = 1; i < args.size(); ++i) {
        const QString& arg = args.at(i);
        const auto next = [&](qint64* value) {
            bool ok = false;
            *value = i + 1 < args.size() ? args.at(++i).toLongLong(&ok) : 0;
            return ok && *value > 0;
        };
        qint64 value = 0;
        if (arg == "--smoke") {
            options->smoke = true;
            options->repeats = 1;
            options->largeFiles = 2;
            options->largeBytes = 2 * 1024 * 1024;
            options->smallFiles = 20;
            options->smallBytes = 20 * 1024;
        } else if (arg == "--repeats" && next(&value)) {
            options->repeats = static_cast<int>(value);
        } else if (arg == "--large" && next(&value)) {
            options->largeFiles = static_cast<int>(value);
        } else if (arg == "--large-mb" && next(&value)) {
            options->largeBytes = value * 1024 * 1024;
        } else if (arg == "--small" && next(&value)) {
            options->smallFiles = static_cast<int>(value);
        } else if (arg == "--small-kb" && next(&value)) {
            options->smallBytes = value * 1024;
        } else if (arg == "--chunk-kb" && next(&value)) {
            options->tuning.chunkBytes = value * 1024;
        } else if (arg == "--in-flight-mb" && next(&value)) {
            options->tuning.maxBytesInFlight = value * 1024 * 1024;
        } else if (arg == "--scp-cipher" && i + 1 < args.size()) {
            options->scpCipher = args.at(++i);
        } else if (arg == "--files" && next(&value)) {
            options->tuning.maxOpenFiles = static_cast<int>(value);
        } else {
            std::fprintf(stderr, "unknown or incomplete option: %s\n", qPrintable(arg));
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    Options options;
    if (!parse(app.arguments(), &options)) {
        return 2;
    }
    QString why;
    if (!sshdAvailable(&why)) {
        std::printf("bench_checkpoint_transfer skipped: %s\n", qPrintable(why));
        return 0;
    }
    SshdFixture sshd;
    QString error;
    if (!sshd.start(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    QTemporaryDir work;
    const QString knownHosts = work.filePath("known_hosts");
    sshd.writeKnownHosts(knownHosts);

    // The checkpoint, generated once.
    const QString checkpoint = work.filePath("checkpoint");
    QDir().mkpath(checkpoint + "/shards");
    QDir().mkpath(checkpoint + "/state");
    for (int i = 0; i < options.largeFiles; ++i) {
        writeRandom(checkpoint + QString("/shards/model-%1.bin").arg(i), options.largeBytes);
    }
    for (int i = 0; i < options.smallFiles; ++i) {
        writeRandom(checkpoint + QString("/state/part-%1.pt").arg(i, 4, 10, QLatin1Char('0')),
                    options.smallBytes);
    }
    const double megabytes =
        (options.largeFiles * options.largeBytes + options.smallFiles * options.smallBytes) / 1e6;
    const QMap<QString, QByteArray> original = digestTree(checkpoint);

    SshEndpoint endpoint;
    endpoint.host = sshd.host();
    endpoint.port = sshd.port();
    endpoint.user = sshd.user();
    endpoint.privateKeyFile = sshd.userKeyPath();
    endpoint.knownHostsFile = knownHosts;
    SshSession session(endpoint);
    bool connected = false;
    QObject::connect(&session, &SshSession::connected, [&] { connected = true; });
    QObject::connect(&session, &SshSession::failed, [&](const SshFailure& failure) {
        std::fprintf(stderr, "%s\n", qPrintable(failure.message));
    });
    session.open();
    if (!waitUntil([&] { return connected; }, 20000)) {
        return 1;
    }
    SftpClient* sftp = session.sftp();
    sftp->setTuning(options.tuning);

    std::printf(
        "checkpoint: %d x %.1f MB + %d x %.0f KB = %.1f MB, %d repeats, one session "
        "(%s)\n",
        options.largeFiles, options.largeBytes / 1e6, options.smallFiles, options.smallBytes / 1e3,
        megabytes, options.repeats, qPrintable(session.negotiatedAlgorithms()));
    std::printf(
        "SftpClient tuning: %lld KB per request, %lld MB in flight, %d files at once; "
        "scp cipher: %s\n",
        static_cast<long long>(options.tuning.chunkBytes / 1024),
        static_cast<long long>(options.tuning.maxBytesInFlight / (1024 * 1024)),
        options.tuning.maxOpenFiles,
        options.scpCipher.isEmpty() ? "OpenSSH's default (chacha20-poly1305)"
                                    : qPrintable(options.scpCipher));

    std::vector<double> oursPut, oursGet, scpPut, scpGet;
    bool verified = false;
    bool allWorked = true;
    const QString remoteHome = sshd.homeDir();
    const QString target = QString("%1@%2:").arg(sshd.user(), sshd.host());
    for (int repeat = 0; repeat < options.repeats; ++repeat) {
        const QString oursRemote = QString("ours-%1").arg(repeat);
        const QString scpRemote = QString("scp-%1").arg(repeat);
        const QString oursBack = work.filePath(QString("back-ours-%1").arg(repeat));
        const QString scpBack = work.filePath(QString("back-scp-%1").arg(repeat));
        const auto runOurs = [&] {
            const double put = timeOurs([&](SftpClient::Done done) {
                sftp->putTree(checkpoint, "~/" + oursRemote, std::move(done));
            });
            const double get = timeOurs([&](SftpClient::Done done) {
                sftp->getTree("~/" + oursRemote, oursBack, std::move(done));
            });
            allWorked &= put > 0 && get > 0;
            oursPut.push_back(megabytes / put);
            oursGet.push_back(megabytes / get);
        };
        const auto runScp = [&] {
            const double put =
                timeScp(sshd, knownHosts, options.scpCipher, checkpoint, target + scpRemote);
            const double get =
                timeScp(sshd, knownHosts, options.scpCipher, target + scpRemote, scpBack);
            allWorked &= put > 0 && get > 0;
            scpPut.push_back(megabytes / put);
            scpGet.push_back(megabytes / get);
        };
        // Alternate who goes first, so that neither always meets a warmer or busier machine.
        if (repeat % 2 == 0) {
            runOurs();
            runScp();
        } else {
            runScp();
            runOurs();
        }
        if (!verified) {
            verified = true;
            const bool same = digestTree(remoteHome + "/" + oursRemote) == original &&
                              digestTree(oursBack) == original;
            std::printf("SftpClient copies are byte-identical: %s\n", same ? "yes" : "NO");
            allWorked &= same;
        }
        std::printf(
            "repeat %d: put ours %.0f MB/s, scp %.0f MB/s; get ours %.0f MB/s, scp %.0f "
            "MB/s\n",
            repeat + 1, oursPut.back(), scpPut.back(), oursGet.back(), scpGet.back());
        std::fflush(stdout);
        QDir(remoteHome + "/" + oursRemote).removeRecursively();
        QDir(remoteHome + "/" + scpRemote).removeRecursively();
        QDir(oursBack).removeRecursively();
        QDir(scpBack).removeRecursively();
    }
    const double put = median(oursPut) / median(scpPut);
    const double get = median(oursGet) / median(scpGet);
    std::printf("\nmedian of %d          SftpClient      scp -r   ours/scp\n", options.repeats);
    std::printf("put head -> node  %8.0f MB/s %7.0f MB/s   %5.2f\n", median(oursPut),
                median(scpPut), put);
    std::printf("get node -> head  %8.0f MB/s %7.0f MB/s   %5.2f\n", median(oursGet),
                median(scpGet), get);
    std::printf("goal: within 1.25x of scp (ours/scp >= 0.80)\n");
    return allWorked ? 0 : 1;
}
