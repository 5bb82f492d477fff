// The trial state machine: which moves the runtime may make, and trial ids.
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestTrialState)
#include "test_trial_state.moc"
