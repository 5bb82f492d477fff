// Structured problems: one Problem per mistake, the line the CLI prints made from it, the order
// and severity a load reports them in, and their JSON in the control API (api/problems_json.h).
#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include "api/problems_json.h"
#include "config/cluster_loader.h"
#include "config/experiment_loader.h"
#include "config/problem_list.h"

using namespace tunedeck;

namespace {

bool writeText(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0;
}

}  // namespace

class TestProblems : public QObject {
    Q_OBJECT

  private slots:
    void textIsPlaceKeyAndMessage() {
        const Problem located{{"exp.yaml", 4, 7}, "scheduler.grace_period", "must be >= 1, got 0"};
        QCOMPARE(located.text(),
                 QStringLiteral("exp.yaml:4:7: scheduler.grace_period: must be >= 1, got 0"));
        QCOMPARE(located.keyedMessage(),
                 QStringLiteral("scheduler.grace_period: must be >= 1, got 0"));
        const Problem wholeFile{{"exp.yaml"}, QString(), "no such file"};
        QCOMPARE(wholeFile.text(), QStringLiteral("exp.yaml: no such file"));
        const Problem nowhere{{}, QString(), "give the experiment as \"path\" or as \"yaml\""};
        QCOMPARE(nowhere.text(), nowhere.message);
    }

    // Issue 33: each lookup decoded its line from the start, so many problems on one long line
    // (a 1 MiB single-line JSON file) took time quadratic in its length.
    void manyProblemsOnOneLongLineAreLocatedQuickly() {
        QByteArray line;
        const QByteArray piece = QStringLiteral("ab\u00e9c\U0001F600d,").toUtf8();
        while (line.size() < 1024 * 1024) {
            line += piece;
        }
        const QByteArray text = "{\n" + line + "\n}";
        const TextPositions positions("space.json", text);
        // Columns count characters as an editor does (UTF-16 units, as QString counts them).
        for (const int byte : {0, 1, 2, 4, 5, 9, 11, 12, 1000, int(line.size())}) {
            const int expected = int(QString::fromUtf8(line.left(byte)).size()) + 1;
            QCOMPARE(positions.at(1, byte).column, expected);
            QCOMPARE(positions.atOffset(2 + byte).column, expected);
        }
        QElapsedTimer clock;
        clock.start();
        qint64 sum = 0;
        constexpr int kLookups = 20000;
        for (int i = 0; i < kLookups; ++i) {
            sum += positions.at(1, int(line.size() - 1 - (i % 1000))).column;
        }
        QVERIFY(sum > 0);
        QVERIFY2(clock.elapsed() < 2000,
                 qPrintable(QStringLiteral("%1 lookups near the end of a 1 MiB line took %2 ms")
                                .arg(kLookups)
                                .arg(clock.elapsed())));
    }

    void listSortsByPlaceDropsRepeatsAndEscapes() {
        ProblemList list;
        list.add({"f", 9, 2}, "b", "second");
        list.add({"f", 3, 5}, "a", "first");
        list.add({"f"}, QString(), "whole file");
        list.add({"f", 3, 5}, "a", "first");  // found twice
        list.add(Problem{{"other", 1, 1}, "k", "nested"},
                 SourceLocation{"f", 5, 1});  // placed at 5
        list.add({"f", 12, 1}, "c", QStringLiteral("bell\a and\nnewline"));
        const std::vector<Problem> problems = list.problems();
        QCOMPARE(int(problems.size()), 5);
        QCOMPARE(problems[0].message, QStringLiteral("whole file"));
        QCOMPARE(problems[1].key, QStringLiteral("a"));
        QCOMPARE(problems[2].location.file, QStringLiteral("other"));
        QCOMPARE(problems[3].key, QStringLiteral("b"));
        QCOMPARE(problems[4].message, QStringLiteral("bell\\x07 and\\nnewline"));
        QCOMPARE(list.lines().at(1), QStringLiteral("f:3:5: a: first"));
        QCOMPARE(list.text().count('\n'), 4);  // one line per problem
        for (const Problem& problem : problems) {
            QVERIFY(problem.isError());
        }
        ProblemList warnings(Severity::Warning);
        warnings.add({"f", 1, 1}, "upscaling_speed", "ignored");
        QCOMPARE(warnings.problems().front().severity, Severity::Warning);
    }

    void loadStatusKeepsTheCodeAndTheCliText() {
        LoadProblems clean;
        clean.problems.push_back({{"c.yaml", 2, 1}, "k", "ignored", Severity::Warning});
        QVERIFY(!clean.hasErrors());
        QVERIFY(clean.status().isOk());
        QCOMPARE(clean.warningLines(), QStringList{"c.yaml:2:1: k: ignored"});

        const LoadProblems missing =
            LoadProblems::unreadable("gone.yaml", Status::notFound("no such file"));
        QCOMPARE(missing.status().code(), Status::Code::NotFound);
        QCOMPARE(missing.status().message(), QStringLiteral("gone.yaml: no such file"));

        LoadProblems two;
        two.problems = {{{"e.yaml", 1, 1}, "a", "x"},
                        {{"e.yaml", 2, 1}, "b", "y"},
                        {{"e.yaml", 3, 1}, "c", "z", Severity::Warning}};
        QCOMPARE(two.status().code(), Status::Code::InvalidArgument);
        QCOMPARE(two.status().message(), QStringLiteral("e.yaml:1:1: a: x\ne.yaml:2:1: b: y"));
        QCOMPARE(int(two.errors().size()), 2);
        QCOMPARE(int(two.warnings().size()), 1);
    }

    // A nested cluster file's problems keep their own file, line, key and severity inside the
    // experiment's result: the editor pins them by that, not by reading the line back.
    void experimentResultCarriesTheClustersProblems() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeText(dir.filePath("cluster.yaml"),
                          "cluster_name: lab\nprovider: {type: local}\nupscaling_speed: 1.0\n"));
        const LoadResult<ExperimentSpec> loaded = loadExperimentText(
            "name: c\ntrainable: {command: sh}\ncluster: cluster.yaml\nnum_sample: 3\n",
            dir.filePath("exp.yaml"));
        QVERIFY(!loaded);
        QCOMPARE(int(loaded.problems.size()), 2);
        const Problem& error = loaded.problems[0];
        QCOMPARE(error.severity, Severity::Error);
        QCOMPARE(error.location.file, dir.filePath("exp.yaml"));
        QCOMPARE(error.location.line, 4);
        QCOMPARE(error.location.column, 1);
        QCOMPARE(error.key, QStringLiteral("num_sample"));
        QVERIFY2(error.message.startsWith("unknown key"), qPrintable(error.message));
        const Problem& warning = loaded.problems[1];
        QCOMPARE(warning.severity, Severity::Warning);
        QCOMPARE(warning.location.file, dir.filePath("cluster.yaml"));
        QCOMPARE(warning.location.line, 3);
        QCOMPARE(warning.key, QStringLiteral("upscaling_speed"));
        QCOMPARE(loaded.status().message(), error.text());
    }

    void clusterResultIsTheSameShape() {
        const LoadResult<ClusterSpec> loaded = loadClusterText(
            "cluster_name: lab\nprovider: {type: ssh, head_ip: 'a b'}\n"
            "auth: {ssh_user: alice}\n",
            "lab.yaml");
        QVERIFY(!loaded);
        QCOMPARE(int(loaded.errors().size()), 1);
        QCOMPARE(loaded.errors().front().key, QStringLiteral("provider.head_ip"));
        QCOMPARE(loaded.errors().front().location.line, 2);
        const LoadResult<ClusterSpec> missing = loadClusterFile("no/such/cluster.yaml");
        QCOMPARE(missing.status().code(), Status::Code::NotFound);
        QCOMPARE(missing.errorLines(), QStringList{"no/such/cluster.yaml: no such file"});
    }

    void jsonCarriesEveryField() {
        const Problem problem{{"exp.yaml", 4, 7}, "search_space.lr", "needs [low, high]"};
        const QJsonObject json = api::problemToJson(problem);
        QCOMPARE(json.value("file").toString(), QStringLiteral("exp.yaml"));
        QCOMPARE(json.value("line").toInt(), 4);
        QCOMPARE(json.value("column").toInt(), 7);
        QCOMPARE(json.value("key").toString(), QStringLiteral("search_space.lr"));
        QCOMPARE(json.value("problem").toString(), QStringLiteral("needs [low, high]"));
        // What API version 1 answered as message, kept for its clients.
        QCOMPARE(json.value("message").toString(),
                 QStringLiteral("search_space.lr: needs [low, high]"));
        QCOMPARE(json.value("severity").toString(), QStringLiteral("error"));
        QCOMPARE(api::problemFromJson(json), problem);
        const Problem warning{{"c.yaml", 3, 1}, "upscaling_speed", "ignored", Severity::Warning};
        QCOMPARE(api::problemFromJson(api::problemToJson(warning)), warning);
    }

    // An engine before `key` and `problem` sent {file, line, column, message}, or {message}.
    void jsonFromAnOlderEngineKeepsItsMessage() {
        const Problem old = api::problemFromJson(
            {{"file", "x.yaml"}, {"line", 2}, {"column", 3}, {"message", "name: required"}},
            Severity::Warning);
        QCOMPARE(old.location.line, 2);
        QVERIFY(old.key.isEmpty());
        QCOMPARE(old.keyedMessage(), QStringLiteral("name: required"));
        QCOMPARE(old.severity, Severity::Warning);
        const Problem bare = api::problemFromJson({{"message", "x.yaml: too large"}});
        QCOMPARE(bare.text(), QStringLiteral("x.yaml: too large"));
        QCOMPARE(bare.location.line, 0);
    }

    void validationAnswerSplitsAndReadsBackBySeverity() {
        const std::vector<Problem> problems{
            {{"e.yaml", 1, 1}, "a", "x"},
            {{"c.yaml", 3, 1}, "b", "y", Severity::Warning},
        };
        const QJsonObject fields = api::validationProblems(problems);
        QCOMPARE(fields.value("errors").toArray().size(), 1);
        QCOMPARE(fields.value("warnings").toArray().size(), 1);
        QCOMPARE(api::problemsOfValidation(fields), problems);
        // Without a severity field, the list it is in says which it is.
        QJsonObject older{{"errors", QJsonArray{QJsonObject{{"message", "a"}}}},
                          {"warnings", QJsonArray{QJsonObject{{"message", "b"}}}}};
        const std::vector<Problem> read = api::problemsOfValidation(older);
        QCOMPARE(int(read.size()), 2);
        QVERIFY(read[0].isError());
        QVERIFY(!read[1].isError());
    }

    void invalidSpecAnswerHasTheCliTextAndTheProblems() {
        const std::vector<Problem> errors{{{"e.yaml", 1, 1}, "a", "x"},
                                          {{"e.yaml", 2, 5}, "b", "y"}};
        const QJsonObject answer = api::answerInvalidSpec(7, errors);
        QCOMPARE(answer.value("ok").toBool(true), false);
        QCOMPARE(answer.value("id").toInt(), 7);
        const QJsonObject error = answer.value("error").toObject();
        QCOMPARE(error.value("code").toString(), QStringLiteral("invalid_spec"));
        QCOMPARE(error.value("message").toString(),
                 QStringLiteral("e.yaml:1:1: a: x\ne.yaml:2:5: b: y"));
        const QJsonArray listed = error.value("problems").toArray();
        QCOMPARE(listed.size(), 2);
        QCOMPARE(api::problemFromJson(listed.at(1).toObject()), errors[1]);
    }
};

QTEST_GUILESS_MAIN(TestProblems)
#include "tst_problems.moc"
