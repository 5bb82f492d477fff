// The trial state machine: which moves the runtime may make, trial ids, and how an exit is told.
#include <QTest>

#include "core/exit_description.h"
#include "core/trial.h"

using namespace tunedeck;

Q_DECLARE_METATYPE(tunedeck::TrialStatus)

class TestTrialState : public QObject {
    Q_OBJECT

  private slots:
    void namesRoundTrip() {
        for (auto status : {TrialStatus::Pending, TrialStatus::Running, TrialStatus::Paused,
                            TrialStatus::Terminated, TrialStatus::Error}) {
            QCOMPARE(trialStatusFromName(trialStatusName(status)), status);
        }
        QCOMPARE(trialStatusName(TrialStatus::Terminated), QStringLiteral("TERMINATED"));
        QCOMPARE(trialStatusFromName(QStringLiteral("running")), std::nullopt);
    }

    void onlyTerminatedAndErrorAreFinished() {
        QVERIFY(isFinished(TrialStatus::Terminated));
        QVERIFY(isFinished(TrialStatus::Error));
        QVERIFY(!isFinished(TrialStatus::Pending));
        QVERIFY(!isFinished(TrialStatus::Running));
        QVERIFY(!isFinished(TrialStatus::Paused));
    }

    void transitionTable_data() {
        QTest::addColumn<TrialStatus>("from");
        QTest::addColumn<TrialStatus>("to");
        QTest::addColumn<bool>("allowed");
        using S = TrialStatus;
        const S all[] = {S::Pending, S::Running, S::Paused, S::Terminated, S::Error};
        const QSet<QPair<int, int>> allowed = {
            {int(S::Pending), int(S::Running)}, {int(S::Pending), int(S::Terminated)},
            {int(S::Pending), int(S::Error)},   {int(S::Running), int(S::Pending)},
            {int(S::Running), int(S::Paused)},  {int(S::Running), int(S::Terminated)},
            {int(S::Running), int(S::Error)},   {int(S::Paused), int(S::Pending)},
            {int(S::Paused), int(S::Running)},  {int(S::Paused), int(S::Terminated)},
        };
        for (S from : all) {
            for (S to : all) {
                const QString row = trialStatusName(from) + "->" + trialStatusName(to);
                QTest::newRow(qPrintable(row))
                    << from << to << allowed.contains({int(from), int(to)});
            }
        }
    }
    void transitionTable() {
        QFETCH(TrialStatus, from);
        QFETCH(TrialStatus, to);
        QFETCH(bool, allowed);
        QCOMPARE(canTransition(from, to), allowed);
        Trial trial;
        trial.id = trialIdForIndex(3);
        trial.status = from;
        QCOMPARE(trial.transition(to).isOk(), allowed);
        QCOMPARE(trial.status, allowed ? to : from);
    }

    void refusedTransitionNamesBothStates() {
        Trial trial;
        trial.id = QStringLiteral("t00007");
        trial.status = TrialStatus::Terminated;
        const Status status = trial.transition(TrialStatus::Running);
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QVERIFY(status.message().contains(QStringLiteral("t00007")));
        QVERIFY(status.message().contains(QStringLiteral("TERMINATED")));
        QVERIFY(status.message().contains(QStringLiteral("RUNNING")));
        QCOMPARE(trial.status, TrialStatus::Terminated);
    }

    void idsArePaddedAndSortInCreationOrder() {
        QCOMPARE(trialIdForIndex(41), QStringLiteral("t00041"));
        QCOMPARE(trialIdForIndex(0), QStringLiteral("t00000"));
        QCOMPARE(trialIdForIndex(123456), QStringLiteral("t123456"));
        QVERIFY(trialIdForIndex(9) < trialIdForIndex(10));
        QVERIFY(trialIdForIndex(999) < trialIdForIndex(1000));
    }

    // What `show` and the window say of a failed trial: the signal by name, and running out of
    // memory said in words, whether the kernel ended it or the trial's own allocator gave up.
    void anExitSaysWhyAndOutOfMemoryByName_data() {
        QTest::addColumn<int>("code");    // -1: none
        QTest::addColumn<int>("signal");  // -1: none
        QTest::addColumn<bool>("oomKilled");
        QTest::addColumn<double>("peakMb");
        QTest::addColumn<QStringList>("logTail");
        QTest::addColumn<QString>("expected");
        QTest::newRow("status") << 3 << -1 << false << 10.0 << QStringList{"crashing"}
                                << "exited with status 3";
        QTest::newRow("segfault") << -1 << 11 << false << 10.0 << QStringList{}
                                  << "killed by signal 11 (SIGSEGV)";
        QTest::newRow("kill not from the kernel")
            << -1 << 9 << false << 0.0 << QStringList{} << "killed by signal 9 (SIGKILL)";
        QTest::newRow("OOM killer")
            << -1 << 9 << true << 1536.4 << QStringList{"epoch 3"}
            << "out of memory: the kernel's OOM killer ended it (signal 9) at 1536 MiB resident";
        QTest::newRow("MemoryError under ulimit")
            << 1 << -1 << false << 301.0
            << QStringList{"Traceback (most recent call last):", "  File \"train.py\", line 3",
                           "MemoryError"}
            << "exited with status 1: out of memory at 301 MiB resident (MemoryError)";
        QTest::newRow("CUDA")
            << 1 << -1 << false << 900.0
            << QStringList{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
                           "done"}
            << "exited with status 1: out of GPU memory (torch.OutOfMemoryError: CUDA out of "
               "memory. Tried to allocate 2.00 GiB)";
    }
    void anExitSaysWhyAndOutOfMemoryByName() {
        QFETCH(int, code);
        QFETCH(int, signal);
        QFETCH(bool, oomKilled);
        QFETCH(double, peakMb);
        QFETCH(QStringList, logTail);
        QFETCH(QString, expected);
        ExitFacts exit;
        if (code >= 0) {
            exit.code = code;
        }
        if (signal >= 0) {
            exit.signal = signal;
        }
        exit.oomKilled = oomKilled;
        exit.peakRssMb = peakMb;
        exit.logTail = logTail;
        QCOMPARE(describeExit(exit), expected);
    }
};

QTEST_GUILESS_MAIN(TestTrialState)
#include "test_trial_state.moc"
