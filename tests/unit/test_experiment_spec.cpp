// Locations in the user's file, which every error message starts with.
#include <QTest>

#include "core/experiment_spec.h"

using namespace tunedeck;

class TestExperimentSpec : public QObject {
    Q_OBJECT

  private slots:
    void locationPrintsAsFileLineColumn() {
        QCOMPARE((SourceLocation{"exp.yaml", 12, 5}.toString()), QStringLiteral("exp.yaml:12:5"));
        QCOMPARE((SourceLocation{"exp.yaml", 12, 0}.toString()), QStringLiteral("exp.yaml:12"));
        QCOMPARE((SourceLocation{"exp.yaml", 0, 0}.toString()), QStringLiteral("exp.yaml"));
        QCOMPARE((SourceLocation{"", 0, 0}.toString()), QString());
    }

    void locationOfFindsTheKeyOrItsClosestParent() {
        ExperimentSpec spec;
        spec.sourceFile = QStringLiteral("exp.yaml");
        spec.locations.insert(QStringLiteral("search"), {"exp.yaml", 20, 1});
        spec.locations.insert(QStringLiteral("search.points_to_evaluate"), {"exp.yaml", 22, 3});
        spec.locations.insert(QStringLiteral("search_space.lr"), {"exp.yaml", 5, 3});

        QCOMPARE(spec.locationOf(QStringLiteral("search_space.lr")).toString(),
                 QStringLiteral("exp.yaml:5:3"));
        QCOMPARE(spec.locationOf(QStringLiteral("search.points_to_evaluate[2].lr")).toString(),
                 QStringLiteral("exp.yaml:22:3"));
        QCOMPARE(spec.locationOf(QStringLiteral("search.seedling")).toString(),
                 QStringLiteral("exp.yaml:20:1"));
        const SourceLocation unknown = spec.locationOf(QStringLiteral("stop.accuracy"));
        QCOMPARE(unknown.file, QStringLiteral("exp.yaml"));
        QVERIFY(!unknown.isKnown());
    }

    void metricModeNames() {
        QCOMPARE(metricModeName(MetricMode::Min), QStringLiteral("min"));
        QCOMPARE(metricModeName(MetricMode::Max), QStringLiteral("max"));
    }
};

QTEST_GUILESS_MAIN(TestExperimentSpec)
#include "test_experiment_spec.moc"
