// A trial's report as the engine takes it: what is refused, with whose fault, and the result it
// records (Ray Tune's automatic fields).
#include <QJsonDocument>
#include <QTest>
#include <limits>

#include "core/trial_report.h"
#include "scheduler_builders.h"

using namespace tunedeck;

namespace {

ExperimentSpec specWithMetric(const QString& metric) {
    ExperimentSpec spec;
    spec.metric = metric;
    return spec;
}

QJsonValue metricsFrom(const char* json) {
    return QJsonDocument::fromJson(json).object();
}

}  // namespace

class TestTrialReport : public QObject {
    Q_OBJECT

  private slots:
    void aReportWithoutItsOwnIterationIsTheNextOne() {
        std::int64_t iteration = -1;
        QVERIFY(!checkReport(metricsFrom(R"({"loss": 0.5})"), specWithMetric("loss"), "t00001", 6,
                             &iteration));
        QCOMPARE(iteration, std::int64_t(7));
    }

    void theTrialsOwnIterationIsKept() {
        std::int64_t iteration = -1;
        QVERIFY(!checkReport(metricsFrom(R"({"loss": 0.5, "training_iteration": 40})"),
                             specWithMetric("loss"), "t00001", 6, &iteration));
        QCOMPARE(iteration, std::int64_t(40));
    }

    void aReportWithoutAMetricsObjectIsTheTrialsFault() {
        std::int64_t iteration = 0;
        const auto problem =
            checkReport(QJsonValue(3), specWithMetric("loss"), "t00001", 0, &iteration);
        QVERIFY(problem);
        QCOMPARE(problem->kind, ReportProblem::Kind::TrialFault);
        QCOMPARE(problem->message, QStringLiteral("a report without a \"metrics\" object"));
    }

    // Optuna fails a trial whose objective is NaN: a diverged configuration should not rank.
    void aMetricThatIsNoFiniteNumberIsTheTrialsFault() {
        std::int64_t iteration = 0;
        const auto problem = checkReport(metricsFrom(R"({"loss": "nan"})"), specWithMetric("loss"),
                                         "t00001", 0, &iteration);
        QVERIFY(problem);
        QCOMPARE(problem->kind, ReportProblem::Kind::TrialFault);
        QCOMPARE(problem->message,
                 QStringLiteral("the trial reported loss = \"nan\", which is not a finite number"));
    }

    // Ray raises when the metric is never reported: the experiment names a key that is not there.
    void aMissingMetricIsAMistakeOfTheExperiment() {
        std::int64_t iteration = 0;
        const auto problem = checkReport(metricsFrom(R"({"acc": 0.9})"), specWithMetric("loss"),
                                         "t00003", 0, &iteration);
        QVERIFY(problem);
        QCOMPARE(problem->kind, ReportProblem::Kind::ExperimentMistake);
        QVERIFY2(problem->message.contains(QStringLiteral(
                     "metric: 'loss' is not in the results that trial t00003 reports (it "
                     "reported: acc)")),
                 qPrintable(problem->message));
    }

    void anIterationBeyondWholeNumbersIsRefused() {
        for (const char* json : {R"({"loss": 1, "training_iteration": 1e300})",
                                 R"({"loss": 1, "training_iteration": 2.5})",
                                 R"({"loss": 1, "training_iteration": -1})"}) {
            std::int64_t iteration = 0;
            const auto problem =
                checkReport(metricsFrom(json), specWithMetric("loss"), "t00001", 0, &iteration);
            QVERIFY2(problem, json);
            QCOMPARE(problem->kind, ReportProblem::Kind::TrialFault);
            QVERIFY(problem->message.contains(QStringLiteral("whole number from 0 to 2^53")));
        }
    }

    // The experiment's own stop rule comes before the scheduler, as Ray's stopper does.
    void aStopCriterionDecidesBeforeTheScheduler() {
        const auto asha = makeValidated(
            schedulerSpec("asha", {{"max_t", 100}, {"grace_period", 1}}, "loss", MetricMode::Min));
        QVERIFY(asha);
        StopCriteria stop;
        stop.trainingIteration = 3;
        Trial trial;
        trial.id = QStringLiteral("t00000");
        asha->onTrialAdd(trial);
        const SchedulerDecision early =
            decideOnResult(stop, *asha, trial, {{"training_iteration", 2}, {"loss", 1.0}});
        QCOMPARE(early.action, SchedulerDecision::Action::Continue);
        const SchedulerDecision done =
            decideOnResult(stop, *asha, trial, {{"training_iteration", 3}, {"loss", 1.0}});
        QCOMPARE(done.action, SchedulerDecision::Action::Stop);
        QCOMPARE(done.reason, QStringLiteral("training_iteration >= 3"));
    }

    void theRecordedResultCarriesRaysAutomaticFields() {
        const QJsonObject result =
            withAutomaticFields(QJsonObject{{"loss", 0.25}, {"training_iteration", 2}},
                                {3, QStringLiteral("t00004"), 1700000000.5, 0.75, 9.5, 2});
        QCOMPARE(result.value("loss").toDouble(), 0.25);
        QCOMPARE(result.value("training_iteration").toInteger(), 3);
        QCOMPARE(result.value("trial_id").toString(), QStringLiteral("t00004"));
        QCOMPARE(result.value("timestamp").toDouble(), 1700000000.5);
        QCOMPARE(result.value("time_this_iter_s").toDouble(), 0.75);
        QCOMPARE(result.value("time_total_s").toDouble(), 9.5);
        QCOMPARE(result.value("iterations_since_restore").toInteger(), 2);
    }
};

QTEST_APPLESS_MAIN(TestTrialReport)
#include "test_trial_report.moc"
