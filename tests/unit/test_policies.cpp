// Retry policy on trial failure, checkpoint retention, and what a note on a trial may hold.
#include <QTest>

#include "core/checkpoint_policy.h"
#include "core/failure_policy.h"
#include "core/trial_note.h"

using namespace tunedeck;

Q_DECLARE_METATYPE(tunedeck::FailureCause)
Q_DECLARE_METATYPE(tunedeck::FailureAction)

namespace {

CheckpointRecord checkpoint(std::int64_t id, std::int64_t iteration,
                            const QJsonObject& result = {}) {
    return {id, iteration, result};
}

std::vector<std::int64_t> sorted(std::vector<std::int64_t> ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
}

}  // namespace

class TestPolicies : public QObject {
    Q_OBJECT

  private slots:
    // Reports are sent ahead of their answers only where no answer but continue and stop can
    // come (PROTOCOL.md, "Report windows").
    void reportWindowIsGrantedOnlyWhereNoCheckpointOrPauseIsAsked_data() {
        QTest::addColumn<QString>("scheduler");
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<int>("frequency");
        QTest::addColumn<bool>("atEnd");
        QTest::addColumn<int>("window");
        const int all = kMaxReportWindow;
        QTest::newRow("default scheduler") << QString() << QJsonObject() << 0 << false << all;
        QTest::newRow("fifo") << "fifo" << QJsonObject() << 0 << false << all;
        QTest::newRow("asha stops") << "asha" << QJsonObject() << 0 << false << all;
        QTest::newRow("median stops by default") << "median" << QJsonObject() << 0 << false << all;
        QTest::newRow("median that pauses")
            << "median" << QJsonObject{{"hard_stop", false}} << 0 << false << 1;
        QTest::newRow("hyperband pauses") << "hyperband" << QJsonObject() << 0 << false << 1;
        QTest::newRow("pbt exploits") << "pbt" << QJsonObject() << 0 << false << 1;
        QTest::newRow("pb2 exploits") << "pb2" << QJsonObject() << 0 << false << 1;
        QTest::newRow("checkpoint frequency") << "fifo" << QJsonObject() << 5 << false << 1;
        QTest::newRow("checkpoint at end") << "asha" << QJsonObject() << 0 << true << 1;
    }
    void reportWindowIsGrantedOnlyWhereNoCheckpointOrPauseIsAsked() {
        QFETCH(QString, scheduler);
        QFETCH(QJsonObject, options);
        QFETCH(int, frequency);
        QFETCH(bool, atEnd);
        QFETCH(int, window);
        ExperimentSpec spec;
        spec.scheduler.name = scheduler;
        spec.scheduler.options = options;
        spec.checkpoint.frequency = frequency;
        spec.checkpoint.atEnd = atEnd;
        QCOMPARE(reportWindowLimit(spec), window);
    }

    void failureDecisions_data() {
        QTest::addColumn<int>("maxFailures");
        QTest::addColumn<bool>("failFast");
        QTest::addColumn<FailureCause>("cause");
        QTest::addColumn<int>("failuresSoFar");
        QTest::addColumn<FailureAction>("action");
        QTest::addColumn<bool>("counts");
        using C = FailureCause;
        using A = FailureAction;
        QTest::newRow("default gives up at once")
            << 0 << false << C::TrialCrashed << 0 << A::GiveUp << true;
        QTest::newRow("retry while budget left")
            << 3 << false << C::TrialCrashed << 2 << A::Retry << true;
        QTest::newRow("budget spent") << 3 << false << C::TrialHung << 3 << A::GiveUp << true;
        QTest::newRow("unlimited")
            << -1 << false << C::ProtocolViolation << 1000 << A::Retry << true;
        QTest::newRow("fail fast")
            << 5 << true << C::TrialCrashed << 0 << A::StopExperiment << true;
        QTest::newRow("node lost never counts")
            << 0 << false << C::NodeLost << 0 << A::Retry << false;
        QTest::newRow("node lost beats fail fast")
            << 0 << true << C::NodeLost << 9 << A::Retry << false;
    }
    void failureDecisions() {
        QFETCH(int, maxFailures);
        QFETCH(bool, failFast);
        QFETCH(FailureCause, cause);
        QFETCH(int, failuresSoFar);
        QFETCH(FailureAction, action);
        QFETCH(bool, counts);
        FailureSpec spec;
        spec.maxFailures = maxFailures;
        spec.failFast = failFast;
        const FailureDecision decision = decideOnFailure(spec, cause, failuresSoFar);
        QCOMPARE(decision.action, action);
        QCOMPARE(decision.counts, counts);
    }

    void checkpointRequestedEveryFrequencyIterations() {
        CheckpointSpec spec;
        QVERIFY(!shouldRequestCheckpoint(spec, 5));
        spec.frequency = 5;
        QVERIFY(!shouldRequestCheckpoint(spec, 4));
        QVERIFY(shouldRequestCheckpoint(spec, 5));
        QVERIFY(shouldRequestCheckpoint(spec, 10));
        QVERIFY(!shouldRequestCheckpoint(spec, 11));
    }

    void keepZeroKeepsEverything() {
        CheckpointSpec spec;
        QVERIFY(checkpointsToDelete(spec, {checkpoint(1, 1), checkpoint(2, 2)}, {}).empty());
    }

    void keepLatestWithoutAScore() {
        CheckpointSpec spec;
        spec.keep = 2;
        const std::vector<CheckpointRecord> all{checkpoint(1, 10), checkpoint(2, 20),
                                                checkpoint(3, 30), checkpoint(4, 40)};
        QCOMPARE(sorted(checkpointsToDelete(spec, all, {})), (std::vector<std::int64_t>{1, 2}));
    }

    void keepBestByScoreMaxPlusTheLatest() {
        CheckpointSpec spec;
        spec.keep = 1;
        spec.score = "accuracy";
        spec.scoreMode = MetricMode::Max;
        const std::vector<CheckpointRecord> all{
            checkpoint(1, 1, {{"accuracy", 0.5}}), checkpoint(2, 2, {{"accuracy", 0.9}}),
            checkpoint(3, 3, {{"accuracy", 0.7}}), checkpoint(4, 4, {{"accuracy", 0.6}})};
        // 2 is the best, 4 the latest (what a retry resumes from).
        QCOMPARE(sorted(checkpointsToDelete(spec, all, {})), (std::vector<std::int64_t>{1, 3}));
    }

    void keepBestByScoreMin() {
        CheckpointSpec spec;
        spec.keep = 2;
        spec.score = "loss";
        spec.scoreMode = MetricMode::Min;
        const std::vector<CheckpointRecord> all{
            checkpoint(1, 1, {{"loss", 0.3}}), checkpoint(2, 2, {{"loss", 0.9}}),
            checkpoint(3, 3, {{"loss", 0.1}}), checkpoint(4, 4, {{"loss", 0.5}}),
            checkpoint(5, 5, {{"loss", 0.8}})};
        QCOMPARE(sorted(checkpointsToDelete(spec, all, {})), (std::vector<std::int64_t>{2, 4}));
    }

    void pinnedCheckpointsAreKept() {
        CheckpointSpec spec;
        spec.keep = 1;
        const std::vector<CheckpointRecord> all{checkpoint(1, 1), checkpoint(2, 2),
                                                checkpoint(3, 3)};
        QCOMPARE(sorted(checkpointsToDelete(spec, all, {1})), (std::vector<std::int64_t>{2}));
    }

    void missingScoreRanksLowest() {
        CheckpointSpec spec;
        spec.keep = 2;
        spec.score = "loss";
        spec.scoreMode = MetricMode::Min;
        const std::vector<CheckpointRecord> all{
            checkpoint(1, 1, {{"loss", 5.0}}), checkpoint(2, 2, {}),
            checkpoint(3, 3, {{"loss", "nan"}}), checkpoint(4, 4, {{"loss", 9.0}}),
            checkpoint(5, 5, {{"accuracy", 1.0}})};
        // Kept: 1 and 4 (the only scored ones) and 5 (the latest).
        QCOMPARE(sorted(checkpointsToDelete(spec, all, {})), (std::vector<std::int64_t>{2, 3}));
    }

    // A note is free text with line breaks and tabs; what a terminal would take as a command
    // (an escape), a NUL or a note longer than a few paragraphs is refused, saying where.
    void aNoteIsRefusedWhereItHoldsAControlCharacter() {
        QVERIFY(checkTrialNote(QStringLiteral("lr too high\n\tdiverged at 40 \u00e9\u4e2d")));
        QVERIFY(checkTrialNote(QString()));  // empty: the note is removed
        const Status escape = checkTrialNote(QStringLiteral("ok\x1b[2J"));
        QVERIFY(!escape);
        QCOMPARE(escape.message(), QStringLiteral("note: character 3: control character U+001B "
                                                  "(only line breaks and tabs may be in a note)"));
        QVERIFY(!checkTrialNote(QStringLiteral("a\rb")));
        QVERIFY(!checkTrialNote(QString(QChar(0)) + QStringLiteral("x")));
        QVERIFY(checkTrialNote(QString(kMaxTrialNoteChars, QLatin1Char('x'))));
        const Status tooLong = checkTrialNote(QString(kMaxTrialNoteChars + 1, QLatin1Char('x')));
        QVERIFY(tooLong.message().contains(QStringLiteral("4001 characters")));
    }

    void aNoteInATableIsOneLineCutAtItsLength() {
        QCOMPARE(trialNoteLine(QStringLiteral("two\nlines\tand  tabs"), 40),
                 QStringLiteral("two lines and tabs"));
        QCOMPARE(trialNoteLine(QStringLiteral("abcdefghij klmnop"), 10),
                 QStringLiteral("abcdefg..."));
        QCOMPARE(trialNoteLine(QString(), 10), QString());
    }
};

QTEST_GUILESS_MAIN(TestPolicies)
#include "test_policies.moc"
