// Per-result round trip over a node link: the engine's side of a trial's report (report in,
// `continue` out, next report in), through the local pipe to this machine's agent and through an
// SSH session to an agent behind an sshd on 127.0.0.1 (tests/common's SshdFixture), measured in
// the same run, alternating. The trial is bench_trainable (C++ SDK), which reports as fast as its
// answers come back, so the interval between two reports is one round trip through the link, the
// agent and the trial. Prints medians and the ratio; asserts nothing. `--smoke`: tiny sizes.
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "cluster/node_link.h"
#include "cluster/ssh_node_link.h"
#include "median.h"
#include "sshd_fixture.h"

namespace {

using tunedeck::NodeLink;

// Runs one trial of `reports` results on `link` (already open) and returns every interval
// between consecutive reports, in microseconds; empty on failure.
std::vector<double> roundTrips(NodeLink& link, int reports, const QString& trialDir) {
    std::vector<double> intervals;
    QEventLoop loop;
    QElapsedTimer clock;
    bool failed = false;
    const QString id = QStringLiteral("t%1").arg(QDateTime::currentMSecsSinceEpoch());
    auto connection = QObject::connect(
        &link, &NodeLink::messageReceived, &loop, [&](const tunedeck::node::Event& event) {
            const tunedeck::node::TrialId* trial = tunedeck::node::trialOf(event);
            if (trial == nullptr || trial->text != id.toStdString()) {
                return;
            }
            if (const auto* relayed = std::get_if<tunedeck::node::TrialLine>(&event)) {
                const std::optional<QJsonObject> msg = tunedeck::relayedTrialLine(*relayed);
                if (!msg || msg->value("type").toString() != QLatin1String("report")) {
                    return;
                }
                if (clock.isValid()) {
                    intervals.push_back(double(clock.nsecsElapsed()) / 1000.0);
                }
                clock.start();
                link.send(
                    tunedeck::node::AnswerOp{id.toStdString(), R"({"action":"continue"})", {}});
            } else if (const auto* exited = std::get_if<tunedeck::node::Exited>(&event)) {
                failed = exited->code != 0;
                loop.quit();
            }
        });
    QObject::connect(&link, &NodeLink::closed, &loop, [&](const QString& why) {
        std::fprintf(stderr, "link closed: %s\n", qPrintable(why));
        failed = true;
        loop.quit();
    });
    const QJsonObject config{{"reports", reports}};
    tunedeck::node::StartOp start;
    start.trial = id.toStdString();
    start.argv = {TUNEDECK_BIN_DIR "/bench_trainable"};
    start.env = {
        {"TUNEDECK_TRIAL_ID", id.toStdString()},
        {"TUNEDECK_EXPERIMENT", "bench"},
        {"TUNEDECK_CONFIG", QJsonDocument(config).toJson(QJsonDocument::Compact).toStdString()},
        {"TUNEDECK_TRIAL_DIR", (trialDir + "/" + id).toStdString()},
        {"TUNEDECK_RESTORE", ""},
        {"TUNEDECK_ITERATION", "0"}};
    start.trialDir = (trialDir + "/" + id).toStdString();
    link.send(start);
    QTimer::singleShot(120000, &loop, [&] {
        failed = true;
        loop.quit();
    });
    loop.exec();
    QObject::disconnect(connection);
    if (failed) {
        intervals.clear();
    }
    return intervals;
}

bool waitForHello(NodeLink& link) {
    QEventLoop loop;
    bool ready = false;
    QObject::connect(&link, &NodeLink::messageReceived, &loop,
                     [&](const tunedeck::node::Event& event) {
                         if (std::holds_alternative<tunedeck::node::Hello>(event)) {
                             ready = true;
                             loop.quit();
                         }
                     });
    QObject::connect(&link, &NodeLink::closed, &loop, [&](const QString& why) {
        std::fprintf(stderr, "link closed: %s\n", qPrintable(why));
        loop.quit();
    });
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    link.open();
    loop.exec();
    return ready;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const bool smoke = app.arguments().contains(QStringLiteral("--smoke"));
    const int reports = smoke ? 200 : 20000;
    const int rounds = smoke ? 1 : 5;
    QString why;
    if (!sshdAvailable(&why)) {
        std::printf("bench_node_link: skipped: %s\n", qPrintable(why));
        return 0;
    }
    SshdFixture sshd;
    if (!sshd.start(&why)) {
        std::fprintf(stderr, "sshd did not start: %s\n", qPrintable(why));
        return 1;
    }
    QTemporaryDir scratch;
    const QString knownHosts = scratch.filePath(QStringLiteral("known_hosts"));
    sshd.writeKnownHosts(knownHosts);

    tunedeck::LocalNodeLink local(QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-worker"));
    tunedeck::SshNodeOptions options;
    options.nodeId = QStringLiteral("127.0.0.1:%1").arg(sshd.port());
    options.endpoint.host = sshd.host();
    options.endpoint.port = sshd.port();
    options.endpoint.user = sshd.user();
    options.endpoint.privateKeyFile = sshd.userKeyPath();
    options.endpoint.knownHostsFile = knownHosts;
    options.nodeRoot = scratch.filePath(QStringLiteral("node"));
    options.mirrors.push_back({QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-worker"),
                               QStringLiteral("bin/tunedeck-worker"),
                               {},
                               false});
    tunedeck::SshNodeLink remote(options);
    if (!waitForHello(local) || !waitForHello(remote)) {
        std::fprintf(stderr, "an agent did not start\n");
        return 1;
    }
    std::vector<double> localTimes;
    std::vector<double> sshTimes;
    for (int round = 0; round < rounds; ++round) {
        const std::vector<double> l = roundTrips(local, reports, scratch.filePath("trials"));
        const std::vector<double> s = roundTrips(remote, reports, scratch.filePath("trials"));
        if (l.empty() || s.empty()) {
            std::fprintf(stderr, "a trial failed\n");
            return 1;
        }
        localTimes.push_back(median(l));
        sshTimes.push_back(median(s));
    }
    const double localUs = median(localTimes);
    const double sshUs = median(sshTimes);
    std::printf(
        "Per-result round trip (report -> continue -> next report), %d results x %d rounds,"
        " median of round medians:\n",
        reports, rounds);
    std::printf("  local pipe          %8.1f us  (%.0f results/s per trial)\n", localUs,
                1e6 / localUs);
    std::printf("  SSH node link       %8.1f us  (%.0f results/s per trial)\n", sshUs, 1e6 / sshUs);
    std::printf("  ratio SSH / local  %8.2fx\n", sshUs / localUs);
    local.shutdown();
    remote.shutdown();
    return 0;
}
