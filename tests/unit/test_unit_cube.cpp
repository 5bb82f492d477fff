// The unit-cube coordinates model-based searchers work in (core/unit_cube.h): which parameters
// are coordinates, and that a point maps to a valid value of each domain and back.
#include <QtTest>

#include "core/unit_cube.h"
#include "space_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;

class TestUnitCube : public QObject {
    Q_OBJECT
  private slots:
    void numericUnconditionalParametersAreCoordinates() {
        const SearchSpace s =
            space({param("lr", loguniform(1e-4, 1e-1)), param("opt", choice({"sgd", "adam"})),
                   param("layers", randint(1, 5))});
        const UnitCube cube(s);
        QCOMPARE(cube.dimensions(), 2);
        QCOMPARE(cube.paths(), (QStringList{"lr", "layers"}));
        QCOMPARE(cube.skipped(), QStringList{"opt"});
    }

    void logDomainsAreLinearInTheLog() {
        const UnitCube cube(space({param("lr", loguniform(1e-4, 1e-0))}));
        Eigen::VectorXd middle(1);
        middle << 0.5;
        QVERIFY(std::abs(cube.decode(middle).value("lr").toDouble() - 1e-2) < 1e-12);
    }

    void integersCoverTheirRangeAndRoundTrip() {
        const UnitCube cube(space({param("n", randint(1, 5)), param("q", quniform(0, 1, 0.25))}));
        Eigen::VectorXd low(2), high(2);
        low << 0, 0;
        high << 1, 1;
        QCOMPARE(cube.decode(low).value("n").toInt(), 1);
        QCOMPARE(cube.decode(high).value("n").toInt(), 4);  // randint's high is excluded
        QCOMPARE(cube.decode(high).value("q").toDouble(), 1.0);
        for (int n = 1; n < 5; ++n) {
            const QJsonObject config{{"n", n}, {"q", 0.5}};
            const auto point = cube.encode(config);
            QVERIFY(point);
            QCOMPARE(cube.decode(*point).value("n").toInt(), n);
            QCOMPARE(cube.decode(*point).value("q").toDouble(), 0.5);
        }
    }

    void groupsNestAndMissingValuesDoNotEncode() {
        const UnitCube cube(
            space({group("model", space({param("width", qrandint(16, 128, 16))}))}));
        QCOMPARE(cube.paths(), QStringList{"model.width"});
        Eigen::VectorXd p(1);
        p << 1.0;
        QCOMPARE(cube.decode(p).value("model").toObject().value("width").toInt(), 128);
        QVERIFY(!cube.encode(QJsonObject{{"model", QJsonObject{}}}));
    }
};

QTEST_GUILESS_MAIN(TestUnitCube)
#include "test_unit_cube.moc"
