// The one definition of the best trial (core/best_trial.h): how a trial's metric values become
// its score under each of Ray's scopes, how scores rank, and how a restored trial's curve goes
// back. The app's bold row and the command line's `best` both rest on these.
#include <QtTest>

#include "core/best_trial.h"

using namespace tunedeck;

class TestBestTrial : public QObject {
    Q_OBJECT
  private slots:
    void eachScopeScoresTheSameValuesItsOwnWay() {
        const std::vector<double> values{0.9, 0.1, 0.2, 0.3, 0.4, 0.5};
        QCOMPARE(*trialScore(values, MetricMode::Max, ScoreScope::Last), 0.5);
        QCOMPARE(*trialScore(values, MetricMode::Max, ScoreScope::All), 0.9);
        QCOMPARE(*trialScore(values, MetricMode::Min, ScoreScope::All), 0.1);
        QCOMPARE(*trialScore(values, MetricMode::Max, ScoreScope::Avg), 2.4 / 6);
        QCOMPARE(*trialScore(values, MetricMode::Max, ScoreScope::Last5Avg), 1.5 / 5);
        // Fewer than 10 values: the mean of all of them.
        QCOMPARE(*trialScore(values, MetricMode::Max, ScoreScope::Last10Avg), 2.4 / 6);
    }

    void noValueHasNoScore() {
        for (const QString& name : scoreScopeNames()) {
            QVERIFY(!trialScore({}, MetricMode::Min, *scoreScopeFromName(name)).has_value());
        }
    }

    void theBestEverAndTheBestLastAreDifferentTrials() {
        // a peaks early and falls; b holds steady: by its last value b wins, by its best a.
        const std::vector<double> a{0.9, 0.1};
        const std::vector<double> b{0.5, 0.5};
        for (const auto& [scope, winner] : std::vector<std::pair<ScoreScope, QString>>{
                 {ScoreScope::Last, "t00001"}, {ScoreScope::All, "t00000"}}) {
            std::vector<TrialScore> scores{{"t00000", *trialScore(a, MetricMode::Max, scope)},
                                           {"t00001", *trialScore(b, MetricMode::Max, scope)}};
            rankScores(&scores, MetricMode::Max);
            QCOMPARE(scores.front().trialId, winner);
        }
    }

    void equalScoresGoToTheTrialCreatedFirst() {
        std::vector<TrialScore> scores{{"t00003", 1.0}, {"t00001", 1.0}, {"t00002", 0.5}};
        rankScores(&scores, MetricMode::Min);
        QCOMPARE(scores[0].trialId, QString("t00002"));
        QCOMPARE(scores[1].trialId, QString("t00001"));
        QCOMPARE(scores[2].trialId, QString("t00003"));
    }

    void scopeNamesAreRays() {
        QCOMPARE(scoreScopeNames(),
                 QStringList({"last", "all", "avg", "last-5-avg", "last-10-avg"}));
        for (const QString& name : scoreScopeNames()) {
            QCOMPARE(scoreScopeName(*scoreScopeFromName(name)), name);
        }
        QVERIFY(!scoreScopeFromName("best").has_value());
        QCOMPARE(scoreScopeName(kDefaultScoreScope), QString("last"));
    }

    void aRestoredTrialsCurveGoesBackToItsCheckpoint() {
        const std::vector<double> iterations{1, 2, 3, 4};
        QCOMPARE(pointsKeptBefore(iterations, 5), std::size_t(4));  // the next one
        QCOMPARE(pointsKeptBefore(iterations, 3), std::size_t(2));  // restored at 2
        QCOMPARE(pointsKeptBefore(iterations, 1), std::size_t(0));
        QCOMPARE(pointsKeptBefore({}, 1), std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TestBestTrial)
#include "test_best_trial.moc"
