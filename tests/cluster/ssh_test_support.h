// Helpers shared by the SSH layer's tests: an endpoint for the test's sshd, opening a session and
// running a command to its end while the event loop turns.
// Thread-safety: the test's thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include "cluster/ssh/exec_channel.h"
#include "cluster/ssh/ssh_session.h"
#include "sshd_fixture.h"

namespace tunedeck::ssh::testing {

// Turns the event loop until `done()` or the timeout; returns done(). It sleeps in the event
// dispatcher between events (a timer bounds each sleep), so `done()` is seen as soon as the
// event that makes it true has been handled, and an idle wait costs no CPU.
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    QTimer wake;
    wake.start(10);
    while (!done() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return done();
}

inline SshEndpoint endpointFor(const SshdFixture& sshd, const QString& knownHostsFile) {
    SshEndpoint endpoint;
    endpoint.host = sshd.host();
    endpoint.port = sshd.port();
    endpoint.user = sshd.user();
    endpoint.privateKeyFile = sshd.userKeyPath();
    endpoint.knownHostsFile = knownHostsFile;
    endpoint.connectTimeoutMs = 10000;
    endpoint.keepaliveIntervalS = 2;
    return endpoint;
}

// How open() ended.
struct OpenResult {
    std::unique_ptr<SshSession> session;
    bool connected = false;
    std::optional<SshFailure> failure;
    qint64 elapsedMs = 0;
};

inline OpenResult openSession(const SshEndpoint& endpoint, int timeoutMs = 15000) {
    OpenResult result;
    result.session = std::make_unique<SshSession>(endpoint);
    QObject::connect(result.session.get(), &SshSession::connected,
                     [&result] { result.connected = true; });
    QObject::connect(result.session.get(), &SshSession::failed,
                     [&result](const SshFailure& failure) { result.failure = failure; });
    QElapsedTimer clock;
    clock.start();
    result.session->open();
    waitUntil([&] { return result.connected || result.failure.has_value(); }, timeoutMs);
    result.elapsedMs = clock.elapsed();
    QObject::disconnect(result.session.get(), nullptr, nullptr, nullptr);
    return result;
}

// What a command did.
struct CommandResult {
    bool started = false;
    bool finished = false;
    int exitStatus = -2;
    QString exitSignal;
    QByteArray standardOutput;
    QByteArray standardError;
    QString error;
};

// Follows a channel's signals into a CommandResult that outlives neither.
inline void record(ExecChannel* channel, CommandResult* result) {
    QObject::connect(channel, &ExecChannel::started, [result] { result->started = true; });
    QObject::connect(channel, &ExecChannel::standardOutput,
                     [result](const QByteArray& data) { result->standardOutput += data; });
    QObject::connect(channel, &ExecChannel::standardError,
                     [result](const QByteArray& data) { result->standardError += data; });
    QObject::connect(channel, &ExecChannel::finished,
                     [result, channel](int status, const QString& signal) {
                         result->finished = true;
                         result->exitStatus = status;
                         result->exitSignal = signal;
                         result->error = channel->errorString();
                     });
}

// Runs `command` to its end, feeding `input` (then EOF) on its stdin.
inline CommandResult runCommand(SshSession& session, const QString& command,
                                const QByteArray& input = {}, int timeoutMs = 20000) {
    CommandResult result;
    std::unique_ptr<ExecChannel> channel = session.exec(command);
    if (!channel) {
        result.error = QStringLiteral("exec() returned no channel");
        return result;
    }
    record(channel.get(), &result);
    if (!input.isEmpty()) {
        channel->write(input);
    }
    channel->closeStdin();
    waitUntil([&] { return result.finished; }, timeoutMs);
    return result;
}

}  // namespace tunedeck::ssh::testing
