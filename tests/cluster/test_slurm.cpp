// An experiment whose nodes are Slurm allocations, on a real single-host Slurm that the test
// starts on this machine (munged, slurmctld and slurmd as root, all their files in a temporary
// folder, ports of their own): the autoscaler grows the cluster from 0 to 2 allocations as trials
// wait, a scancel of an allocation mid-run moves its trial with no failure counted and no result
// lost, an idle allocation is given back after idle_timeout_minutes, and nothing is left in
// squeue after the run. Skipped with the reason when not root or Slurm is not installed.
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "elastic_cluster_tests.h"
#include "engine_harness.h"

namespace {

QString findProgram(const QString& name) {
    return QStandardPaths::findExecutable(
        name, QStandardPaths::standardLocations(QStandardPaths::ApplicationsLocation) +
                  QString::fromLocal8Bit(qgetenv("PATH")).split(':') +
                  QStringList{"/usr/sbin", "/sbin", "/usr/bin"});
}

int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(address);
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0) {
        port = ntohs(address.sin_port);
    }
    ::close(fd);
    return port;
}

// Runs a Slurm client command with the test's slurm.conf; its standard output.
QString slurmCommand(const QString& program, const QStringList& args) {
    QProcess process;
    process.start(findProgram(program), args);
    process.waitForFinished(10000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

// munged, slurmctld and slurmd of a one-node Slurm in a temporary folder.
class SlurmFixture {
  public:
    // Empty when the cluster is up; else why it is not (the test skips with it).
    QString start() {
        if (::geteuid() != 0) {
            return QStringLiteral("needs root: slurmd and munged run as root here");
        }
        for (const char* program :
             {"munged", "slurmctld", "slurmd", "srun", "squeue", "scancel", "sinfo"}) {
            if (findProgram(QLatin1String(program)).isEmpty()) {
                return QStringLiteral("%1 is not installed (packages slurm-wlm and munge)")
                    .arg(QLatin1String(program));
            }
        }
        const QString d = dir_.path();
        QDir().mkpath(d + "/munge");
        QDir().mkpath(d + "/state");
        QDir().mkpath(d + "/spool");
        QFile::setPermissions(d, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                     QFile::ExeGroup | QFile::ExeOther);
        QFile key(d + "/munge/munge.key");
        if (!key.open(QIODevice::WriteOnly)) {
            return QStringLiteral("cannot write the munge key");
        }
        key.write(QByteArray(1024, 'k') + QByteArray::number(qint64(::getpid())));
        key.close();
        key.setPermissions(QFile::ReadOwner);
        const QString socket = d + "/munge/munge.sock";
        startDaemon(munged_, "munged",
                    {"--foreground", "--force", "--key-file=" + key.fileName(),
                     "--socket=" + socket, "--pid-file=" + d + "/munge/munged.pid",
                     "--log-file=" + d + "/munge/munged.log", "--seed-file=" + d + "/munge/seed"});
        char host[256] = {};
        ::gethostname(host, sizeof(host) - 1);
        const QString conf = QStringLiteral(
                                 "ClusterName=tdtest\nSlurmctldHost=%1\nAuthType=auth/munge\n"
                                 "CredType=cred/munge\nAuthInfo=socket=%2\nSlurmUser=root\n"
                                 "SlurmdUser=root\nSlurmctldPort=%3\nSlurmdPort=%4\n"
                                 "StateSaveLocation=%5/state\nSlurmdSpoolDir=%5/spool\n"
                                 "SlurmctldPidFile=%5/slurmctld.pid\nSlurmdPidFile=%5/slurmd.pid\n"
                                 "SlurmctldLogFile=%5/slurmctld.log\nSlurmdLogFile=%5/slurmd.log\n"
                                 "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                                 "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
                                 "SlurmdParameters=config_overrides\nReturnToService=2\n"
                                 "MpiDefault=none\nJobAcctGatherType=jobacct_gather/none\n"
                                 "AccountingStorageType=accounting_storage/none\n"
                                 "SchedulerParameters=sched_interval=1\nKillWait=2\n"
                                 "MessageTimeout=5\n"
                                 "NodeName=%1 CPUs=4 RealMemory=1000 State=UNKNOWN\n"
                                 "PartitionName=tdq Nodes=%1 Default=YES MaxTime=INFINITE "
                                 "State=UP\n")
                                 .arg(QString::fromLocal8Bit(host), socket)
                                 .arg(freePort())
                                 .arg(freePort())
                                 .arg(d);
        conf_ = d + "/slurm.conf";
        QFile file(conf_);
        if (!file.open(QIODevice::WriteOnly) || file.write(conf.toUtf8()) < 0) {
            return QStringLiteral("cannot write slurm.conf");
        }
        file.close();
        qputenv("SLURM_CONF", conf_.toLocal8Bit());
        QTest::qWait(300);  // munged's socket
        startDaemon(slurmctld_, "slurmctld", {"-D", "-f", conf_});
        startDaemon(slurmd_, "slurmd", {"-D", "-f", conf_});
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 20000) {
            if (slurmCommand("sinfo", {"-h", "-o", "%T"}).trimmed() == QLatin1String("idle")) {
                return {};
            }
            QTest::qWait(200);
        }
        return QStringLiteral("the test's Slurm did not come up in 20 s: %1")
            .arg(QString::fromUtf8(slurmd_.readAll() + slurmctld_.readAll()).right(600));
    }

    ~SlurmFixture() {
        if (!conf_.isEmpty()) {
            slurmCommand("scancel", {"--partition=tdq"});
        }
        for (QProcess* daemon : {&slurmd_, &slurmctld_, &munged_}) {
            if (daemon->state() != QProcess::NotRunning) {
                daemon->terminate();
                if (!daemon->waitForFinished(5000)) {
                    daemon->kill();
                    daemon->waitForFinished(2000);
                }
            }
        }
        qunsetenv("SLURM_CONF");
    }

  private:
    static void startDaemon(QProcess& process, const char* name, const QStringList& args) {
        process.setProcessChannelMode(QProcess::MergedChannels);
        // A test that aborts (qFatal) runs no destructor: the daemons end with it anyway.
        process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        process.start(findProgram(QLatin1String(name)), args);
        process.waitForStarted(5000);
    }

    QTemporaryDir dir_;
    QString conf_;
    QProcess munged_, slurmctld_, slurmd_;
};

}  // namespace

std::vector<QJsonObject> readEventsFile(const QString& path) {
    std::vector<QJsonObject> events;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            const QJsonObject event = QJsonDocument::fromJson(line).object();
            if (!event.isEmpty()) {
                events.push_back(event);
            }
        }
    }
    return events;
}

void TestElasticClusters::scalesWithTheDemandAndSurvivesScancel() {
    SlurmFixture slurm;
    if (const QString why = slurm.start(); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    EngineHarness engine;
    engine.writeFile("cluster.yaml", QStringLiteral("cluster_name: slurmtest\n"
                                                    "provider: {type: slurm, worker_path: %1}\n"
                                                    "available_node_types:\n"
                                                    "  cpu-node:\n"
                                                    "    resources: {CPU: 2}\n"
                                                    "    max_workers: 2\n"
                                                    "    node_config: {time: '10'}\n"
                                                    "idle_timeout_minutes: 0.05\n")
                                         .arg(TUNEDECK_BIN_DIR "/tunedeck-worker"));
    // Four trials of two CPUs on nodes of two: two allocations at once. The last trial runs
    // longest, so the node that runs out of trials idles past the timeout while it runs.
    const QString experiment = engine.writeFile("exp.yaml",
                                                "name: slurm\n"
                                                "trainable: {command: [python3, '@TRIAL@']}\n"
                                                "resources_per_trial: {cpu: 2}\n"
                                                "search_space:\n"
                                                "  iterations: {grid: [4, 4, 4, 24]}\n"
                                                "  sleep: 0.25\n"
                                                "metric: score\nmode: max\n"
                                                "checkpoint: {frequency: 2}\n"
                                                "cluster: cluster.yaml\n");
    const QString eventsFile = engine.root() + "/events.jsonl";
    QElapsedTimer runTime;
    runTime.start();
    auto process = engine.start({"run", experiment, "--events", eventsFile});

    // Once a trial on slurm-1 has reported, its allocation is cancelled as an administrator
    // (or a preemption) would: by its job id.
    QString cancelledNode;
    QElapsedTimer waited;
    waited.start();
    while (cancelledNode.isEmpty() && waited.elapsed() < 30000 &&
           process->state() == QProcess::Running) {
        QTest::qWait(100);
        // The history, as a user's tool sees it: a trial running on slurm-1 has reported.
        const QString busy = sqliteQuery(
            engine.experimentFolder("slurm") + "/experiment.sqlite",
            "SELECT COUNT(*) FROM trials t WHERE t.node_id = 'slurm-1' AND t.status = 'RUNNING' "
            "AND EXISTS (SELECT 1 FROM results r WHERE r.trial_id = t.id)");
        if (busy.toInt() == 0) {
            continue;
        }
        for (const QString& line : slurmCommand("squeue", {"-h", "-o", "%i %j"}).split('\n')) {
            const QStringList words = line.simplified().split(' ');
            if (words.size() == 2 && words[1].endsWith(".slurm-1")) {
                slurmCommand("scancel", {words[0]});
                cancelledNode = "slurm-1";
            }
        }
    }
    QVERIFY2(!cancelledNode.isEmpty(), "no trial on slurm-1 reported");
    const EngineResult result = EngineHarness::finish(*process, 60000);
    const double seconds = double(runTime.elapsed()) / 1000.0;
    QVERIFY2(result.finished && result.exitCode == 0, qPrintable(result.all()));

    // What the user saw: the decisions, with the trials they were for.
    QVERIFY2(result.out.contains("launching 2 x cpu-node (slurm-1, slurm-2) for t00000, t00001"),
             qPrintable(result.out));
    QVERIFY2(
        QRegularExpression("terminating slurm-\\d+: idle for \\d+ s").match(result.out).hasMatch(),
        qPrintable(result.out));

    // Node events: the loss of the cancelled allocation, a replacement launched for its trial.
    std::vector<double> readySeconds;
    bool lost = false;
    bool trialMoved = false;
    int launched = 0;
    for (const QJsonObject& event : readEventsFile(eventsFile)) {
        const QString state = event.value("state").toString();
        if (event.value("type").toString() == "trial_status") {
            trialMoved = trialMoved || (event.value("status").toString() == "PENDING" &&
                                        event.value("reason").toString().contains(
                                            "node slurm-1 lost: its Slurm allocation ended"));
            continue;
        }
        if (event.value("type").toString() != "node") {
            continue;
        }
        launched += state == "launching" ? 1 : 0;
        lost = lost || (state == "lost" && event.value("node").toString() == cancelledNode);
        if (state == "ready") {
            readySeconds.push_back(
                event.value("details").toObject().value("seconds_from_launch").toDouble());
        }
    }
    QVERIFY2(lost, "no node event said the cancelled allocation was lost");
    QVERIFY2(trialMoved, "no trial went back to PENDING for the lost allocation");
    QVERIFY2(launched >= 3, "the lost allocation was not replaced while its trial waited");

    // Nothing lost, nothing counted against the trials, every iteration once.
    const QString db = engine.experimentFolder("slurm") + "/experiment.sqlite";
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM trials WHERE status = 'TERMINATED'"),
             QStringLiteral("4"));
    QCOMPARE(sqliteQuery(db, "SELECT SUM(failures) FROM trials"), QStringLiteral("0"));
    QCOMPARE(sqliteQuery(db, "SELECT COUNT(*) FROM results"), QStringLiteral("36"));
    QCOMPARE(sqliteQuery(db,
                         "SELECT COUNT(*) FROM (SELECT DISTINCT trial_id, iteration FROM "
                         "results)"),
             QStringLiteral("36"));

    // No allocation is left behind.
    QString left;
    for (int i = 0; i < 50; ++i) {
        left = slurmCommand("squeue", {"-h", "-o", "%i %j %T"}).trimmed();
        if (left.isEmpty()) {
            break;
        }
        QTest::qWait(100);
    }
    QVERIFY2(left.isEmpty(), qPrintable("jobs left in squeue: " + left));
    std::sort(readySeconds.begin(), readySeconds.end());
    qInfo(
        "run took %.1f s; launch to agent ready on Slurm: %.2f s (fastest) .. %.2f s (slowest) "
        "over %zu allocations",
        seconds, readySeconds.empty() ? 0.0 : readySeconds.front(),
        readySeconds.empty() ? 0.0 : readySeconds.back(), readySeconds.size());
}

void TestElasticClusters::clusterDownCancelsOnlyItsOwnCluster() {
    // Clusters `a` and `a-b` each run an experiment on the same Slurm; `cluster down` of `a`
    // cancels a's allocation and leaves a-b's (whose job names both start "tunedeck-a-").
    SlurmFixture slurm;
    if (const QString why = slurm.start(); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    EngineHarness engine;
    std::vector<std::unique_ptr<QProcess>> runs;
    for (const QString& cluster : {QStringLiteral("a"), QStringLiteral("a-b")}) {
        engine.writeFile(cluster + ".yaml",
                         QStringLiteral("cluster_name: %1\n"
                                        "provider: {type: slurm, worker_path: %2}\n"
                                        "available_node_types:\n"
                                        "  cpu-node: {resources: {CPU: 1}, max_workers: 1}\n")
                             .arg(cluster, TUNEDECK_BIN_DIR "/tunedeck-worker"));
        runs.push_back(engine.start(
            {"run",
             engine.writeFile("exp-" + cluster + ".yaml",
                              QStringLiteral("name: exp\n"
                                             "trainable: {command: [python3, '@TRIAL@']}\n"
                                             "resources_per_trial: {cpu: 1}\n"
                                             "search_space: {iterations: 400, sleep: 0.1}\n"
                                             "metric: score\nmode: max\n"
                                             "cluster: %1.yaml\n")
                                  .arg(cluster)),
             "--results", engine.root() + "/results-" + cluster}));
    }
    const auto jobs = [] {
        QStringList names;
        for (const QString& line : slurmCommand("squeue", {"-h", "-o", "%j"}).split('\n')) {
            if (!line.trimmed().isEmpty()) {
                names << line.trimmed();
            }
        }
        names.sort();
        return names;
    };
    const QRegularExpression aJob("^tunedeck-a-exp-[0-9a-f]{6}\\.slurm-1$");
    const QRegularExpression abJob("^tunedeck-a-b-exp-[0-9a-f]{6}\\.slurm-1$");
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 30000 &&
           (jobs().filter(aJob).size() != 1 || jobs().filter(abJob).size() != 1)) {
        QTest::qWait(200);
    }
    QVERIFY2(jobs().size() == 2, qPrintable(jobs().join(' ')));

    const EngineResult down = engine.run({"cluster", "down", engine.root() + "/a.yaml"});
    QVERIFY2(down.exitCode == 0, qPrintable(down.all()));
    QVERIFY2(down.out.contains("a down: 1 job cancelled."), qPrintable(down.all()));
    QVERIFY2(!down.out.contains("tunedeck-a-b-"), qPrintable(down.all()));
    QStringList left;
    for (int i = 0; i < 50; ++i) {
        left = jobs();
        if (left.filter(aJob).isEmpty()) {
            break;
        }
        QTest::qWait(100);
    }
    QVERIFY2(left.filter(aJob).isEmpty(), qPrintable(left.join(' ')));
    QVERIFY2(left.filter(abJob).size() == 1,
             qPrintable("a-b's job was cancelled: " + left.join(' ')));
    for (const auto& run : runs) {
        ::kill(pid_t(run->processId()), SIGINT);
        EngineHarness::finish(*run, 30000);
    }
}

void TestElasticClusters::submitOnSlurmLeavesNoJobInSqueue() {
    // `submit --start --stop` on Slurm: the run's allocations, kept by a long idle timeout, are
    // cancelled when it ends; squeue shows none of the cluster's jobs afterwards.
    SlurmFixture slurm;
    if (const QString why = slurm.start(); !why.isEmpty()) {
        QSKIP(qPrintable(why));
    }
    EngineHarness engine;
    const QString cluster = engine.writeFile(
        "lab.yaml", QStringLiteral("cluster_name: lab\n"
                                   "provider: {type: slurm, worker_path: %1}\n"
                                   "idle_timeout_minutes: 60\n"
                                   "available_node_types:\n"
                                   "  cpu-node: {resources: {CPU: 1}, max_workers: 2}\n")
                        .arg(TUNEDECK_BIN_DIR "/tunedeck-worker"));
    const QString experiment = engine.writeFile("exp.yaml",
                                                "name: submitted\n"
                                                "trainable: {command: [python3, '@TRIAL@']}\n"
                                                "resources_per_trial: {cpu: 1}\n"
                                                "search_space: {x: {grid: [1, 2]}, iterations: 3}\n"
                                                "metric: score\nmode: max\n");
    const EngineResult run = engine.run(
        {"submit", cluster, experiment, "--start", "--stop", "--results", engine.resultsRoot()},
        180000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.all()));
    const QJsonObject statuses =
        EngineHarness::statuses(engine.exportJson(engine.experimentFolder("submitted")));
    QCOMPARE(statuses.size(), 2);
    for (const QString& id : statuses.keys()) {
        QCOMPARE(statuses.value(id).toString(), QStringLiteral("TERMINATED"));
    }
    QString left;
    for (int i = 0; i < 100; ++i) {
        left = slurmCommand("squeue", {"-h", "-o", "%j %T"}).trimmed();
        if (!left.contains("tunedeck-lab-")) {
            break;
        }
        QTest::qWait(100);
    }
    QVERIFY2(!left.contains("tunedeck-lab-"), qPrintable("jobs left in squeue: " + left));
}

QTEST_GUILESS_MAIN(TestElasticClusters)
