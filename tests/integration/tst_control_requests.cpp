// The arguments serve reads from control requests (engine/cli/control_requests.h): which
// experiment `validate` and `start` name, and the numbers, ids and formats of `subscribe`,
// `trial_log`, `best` and `export`, each refused with the text its bad_request answer carries.
#include <QTemporaryDir>
#include <QtTest>

#include "cli/control_requests.h"

using namespace tunedeck;
using namespace tunedeck::cli;

namespace {

api::Request request(const QString& op, const QJsonObject& arguments) {
    QJsonObject all = arguments;
    all.insert("op", op);
    return {QJsonValue(1), op, all};
}

}  // namespace

class TestControlRequests : public QObject {
    Q_OBJECT

  private slots:
    void experimentAsTextResolvesFromFileName() {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const LoadResult<ExperimentSpec> loaded = loadRequestedExperiment(
            request("validate", {{"yaml", "name: x\ntrainable: {command: sh}\nnum_sample: 2\n"},
                                 {"file_name", root.filePath("mine.yaml")}}),
            root.path());
        QVERIFY(!loaded);
        QCOMPARE(loaded.errors().front().location.file, root.filePath("mine.yaml"));
        QCOMPARE(loaded.errors().front().key, QStringLiteral("num_sample"));
        // Without file_name, the text is named after the results root.
        const LoadResult<ExperimentSpec> unnamed =
            loadRequestedExperiment(request("validate", {{"yaml", "name: x\n"}}), root.path());
        QCOMPARE(unnamed.errors().front().location.file, root.filePath("experiment.yaml"));
    }

    void experimentNeedsPathOrYaml() {
        const LoadResult<ExperimentSpec> loaded =
            loadRequestedExperiment(request("start", {{"yaml", 3}}), "/results");
        QVERIFY(!loaded);
        QCOMPARE(loaded.status().message(),
                 QStringLiteral("give the experiment as \"path\" or as \"yaml\""));
        const LoadResult<ExperimentSpec> missing = loadRequestedExperiment(
            request("start", {{"path", "/no/such/experiment.yaml"}}), "/results");
        QCOMPARE(missing.status().code(), Status::Code::NotFound);
    }

    void wholeNumbersUpTo2To53() {
        QVERIFY(isWholeNumberArgument(0));
        QVERIFY(isWholeNumberArgument(9007199254740992.0));
        QVERIFY(!isWholeNumberArgument(9007199254740994.0));
        QVERIFY(!isWholeNumberArgument(1e300));
        QVERIFY(!isWholeNumberArgument(-1));
        QVERIFY(!isWholeNumberArgument(1.5));
        QVERIFY(!isWholeNumberArgument("3"));
    }

    void sinceDefaultsToZero() {
        QString error;
        QCOMPARE(sinceArgument(request("subscribe", {}), &error), std::optional<std::int64_t>(0));
        QCOMPARE(sinceArgument(request("subscribe", {{"since", 42}}), &error),
                 std::optional<std::int64_t>(42));
        QVERIFY(!sinceArgument(request("subscribe", {{"since", 1e300}}), &error));
        QVERIFY(error.startsWith("\"since\" must be a sequence number"));
    }

    void trialLogNeedsATrialId() {
        QString error;
        const auto asked =
            trialLogArgument(request("trial_log", {{"trial", "t00003"}, {"offset", 10}}), &error);
        QVERIFY(asked);
        QCOMPARE(asked->trial, QStringLiteral("t00003"));
        QCOMPARE(asked->offset, qint64(10));
        QCOMPARE(trialLogArgument(request("trial_log", {{"trial", "t1"}}), &error)->offset,
                 qint64(0));
        QVERIFY(!trialLogArgument(request("trial_log", {{"trial", "../t1"}}), &error));
        QVERIFY(error.startsWith("trial_log takes \"trial\""));
        QVERIFY(!trialLogArgument(request("trial_log", {{"trial", "t1"}, {"offset", -1}}), &error));
    }

    void reportFormatsPerOp() {
        QString error;
        QCOMPARE(reportFormatArgument(request("best", {}), &error), std::optional<QString>("yaml"));
        QCOMPARE(reportFormatArgument(request("export", {}), &error),
                 std::optional<QString>("csv"));
        QCOMPARE(reportFormatArgument(request("best", {{"format", "flags"}}), &error),
                 std::optional<QString>("flags"));
        QVERIFY(!reportFormatArgument(request("export", {{"format", "flags"}}), &error));
        QCOMPARE(error, QStringLiteral("export: \"format\" is one of csv, json"));
    }

    void bestTakesRaysScopesAndDefaultsToTheEngines() {
        QString error;
        QCOMPARE(bestScopeArgument(request("best", {}), &error), std::optional<QString>("last"));
        QCOMPARE(bestScopeArgument(request("best", {{"scope", "last-5-avg"}}), &error),
                 std::optional<QString>("last-5-avg"));
        QVERIFY(!bestScopeArgument(request("best", {{"scope", "max"}}), &error));
        QCOMPARE(error, QStringLiteral(
                            "best: \"scope\" is one of last, all, avg, last-5-avg, last-10-avg"));
    }
};

QTEST_GUILESS_MAIN(TestControlRequests)
#include "tst_control_requests.moc"
