// The Gaussian process behind bayesopt and pb2: interpolation, posterior variance, length-scale
// fitting, the likelihood gradient, the acquisition functions and numerical robustness.
#include <QTest>
#include <cmath>
#include <numbers>

#include "core/gaussian_process.h"
#include "core/rng.h"

using namespace tunedeck;

namespace {

// n points evenly spread over [0, 1] (1-d), as an n x 1 matrix.
Eigen::MatrixXd evenly(int n) {
    Eigen::MatrixXd x(n, 1);
    for (int i = 0; i < n; ++i) {
        x(i, 0) = (i + 0.5) / n;
    }
    return x;
}

Eigen::VectorXd sine(const Eigen::MatrixXd& x, double cycles) {
    Eigen::VectorXd y(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        y[i] = std::sin(2 * std::numbers::pi * cycles * x(i, 0));
    }
    return y;
}

Eigen::VectorXd at(double value) {
    return Eigen::VectorXd::Constant(1, value);
}

double meanAt(const GaussianProcess& gp, const Eigen::VectorXd& point) {
    double mean = 0;
    double variance = 0;
    gp.predict(point, &mean, &variance);
    return mean;
}

double varianceAt(const GaussianProcess& gp, const Eigen::VectorXd& point) {
    double mean = 0;
    double variance = 0;
    gp.predict(point, &mean, &variance);
    return variance;
}

}  // namespace

class TestGaussianProcess : public QObject {
    Q_OBJECT

  private slots:
    void interpolatesNoiseFreeData() {
        const Eigen::MatrixXd x = evenly(12);
        const Eigen::VectorXd y = 3 * sine(x, 1) + Eigen::VectorXd::Constant(12, 10);
        GaussianProcess gp;
        Rng rng(1);
        gp.fit(x, y, rng);
        QVERIFY(gp.isFitted());
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            QVERIFY2(std::abs(meanAt(gp, x.row(i).transpose()) - y[i]) < 1e-2,
                     qPrintable(QString::number(meanAt(gp, x.row(i).transpose()))));
        }
        // Between the points the smooth curve is still followed closely.
        const double between = 0.5 * (x(3, 0) + x(4, 0));
        QVERIFY(std::abs(meanAt(gp, at(between)) -
                         (10 + 3 * std::sin(2 * std::numbers::pi * between))) < 0.05);
    }

    void varianceShrinksAtDataPoints() {
        Eigen::MatrixXd x(4, 1);
        x << 0.1, 0.3, 0.35, 0.6;
        const Eigen::VectorXd y = sine(x, 1);
        GaussianProcess gp;
        Rng rng(2);
        gp.fit(x, y, rng);
        const double far = varianceAt(gp, at(0.98));
        QVERIFY(far > 0);
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            QVERIFY(varianceAt(gp, x.row(i).transpose()) < 1e-2 * far);
        }
        // Halfway between two points it is more uncertain than at either of them.
        QVERIFY(varianceAt(gp, at(0.475)) > 10 * varianceAt(gp, at(0.35)));
    }

    void smoothFunctionGetsALongerLengthScaleThanAWigglyOne() {
        const Eigen::MatrixXd x = evenly(40);
        GaussianProcess smooth;
        GaussianProcess wiggly;
        Rng rng1(3);
        Rng rng2(3);
        smooth.fit(x, sine(x, 0.5), rng1);
        wiggly.fit(x, sine(x, 6), rng2);
        const double smoothScale = smooth.hyperparameters().lengthScales[0];
        const double wigglyScale = wiggly.hyperparameters().lengthScales[0];
        QVERIFY2(smoothScale > 2 * wigglyScale,
                 qPrintable(QStringLiteral("%1 vs %2").arg(smoothScale).arg(wigglyScale)));
    }

    void irrelevantInputGetsALongLengthScale() {
        // ARD: y depends on the first input only.
        Rng points(4);
        Eigen::MatrixXd x(40, 2);
        Eigen::VectorXd y(40);
        for (int i = 0; i < 40; ++i) {
            x(i, 0) = points.uniform01();
            x(i, 1) = points.uniform01();
            y[i] = std::sin(2 * std::numbers::pi * 2 * x(i, 0));
        }
        GaussianProcess gp;
        Rng rng(5);
        gp.fit(x, y, rng);
        const Eigen::VectorXd& scales = gp.hyperparameters().lengthScales;
        QVERIFY2(scales[1] > 4 * scales[0],
                 qPrintable(QStringLiteral("%1 vs %2").arg(scales[0]).arg(scales[1])));
    }

    void expectedImprovementIsZeroWhereTheMeanIsFarAboveTheBest() {
        // A bowl with its floor at x = 0.2; best observed value is the minimum of y.
        const Eigen::MatrixXd x = evenly(15);
        Eigen::VectorXd y(15);
        for (int i = 0; i < 15; ++i) {
            y[i] = 20 * (x(i, 0) - 0.2) * (x(i, 0) - 0.2);
        }
        GaussianProcess gp;
        Rng rng(6);
        gp.fit(x, y, rng);
        const double best = y.minCoeff();
        const double nearFloor = gp.expectedImprovement(at(0.2), best);
        const double highUp = gp.expectedImprovement(at(0.9), best);
        QVERIFY2(nearFloor > 1e-4, qPrintable(QString::number(nearFloor)));
        QVERIFY2(highUp < 1e-8, qPrintable(QString::number(highUp)));
        // A margin makes every improvement smaller.
        QVERIFY(gp.expectedImprovement(at(0.2), best, 0.5) < nearFloor);
    }

    void expectedImprovementAndUcbFollowTheirFormulas() {
        const Eigen::MatrixXd x = evenly(6);
        const Eigen::VectorXd y = sine(x, 1);
        GaussianProcess gp;
        Rng rng(7);
        gp.fit(x, y, rng);
        const Eigen::VectorXd point = at(0.97);
        double mean = 0;
        double variance = 0;
        gp.predict(point, &mean, &variance);
        const double sd = std::sqrt(variance);
        QVERIFY(sd > 1e-3);
        const double best = y.minCoeff();
        const double z = (best - 0.1 - mean) / sd;
        const double expected = (best - 0.1 - mean) * 0.5 * std::erfc(-z / std::sqrt(2.0)) +
                                sd * std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
        QVERIFY(std::abs(gp.expectedImprovement(point, best, 0.1) - expected) < 1e-12);
        QVERIFY(std::abs(gp.upperConfidenceBound(point, 4) - (mean + 2 * sd)) < 1e-12);
    }

    void likelihoodGradientMatchesFiniteDifferences() {
        Rng rng(8);
        Eigen::MatrixXd x(15, 3);
        Eigen::VectorXd y(15);
        for (int i = 0; i < 15; ++i) {
            for (int j = 0; j < 3; ++j) {
                x(i, j) = rng.uniform01();
            }
            y[i] = std::sin(3 * x(i, 0)) + x(i, 1) * x(i, 2) + 0.1 * rng.normal(0, 1);
        }
        GpHyperparameters h;
        h.lengthScales = Eigen::Vector3d(0.3, 0.7, 1.5);
        h.signalVariance = 0.8;
        h.noiseVariance = 0.05;
        Eigen::VectorXd gradient;
        const double value = GaussianProcess::logMarginalLikelihood(x, y, h, &gradient);
        QVERIFY(std::isfinite(value));
        QCOMPARE(gradient.size(), Eigen::Index(5));
        const double step = 1e-5;
        for (int i = 0; i < 5; ++i) {
            const auto shifted = [&](double delta) {
                GpHyperparameters s = h;
                if (i < 3) {
                    s.lengthScales[i] *= std::exp(delta);
                } else if (i == 3) {
                    s.signalVariance *= std::exp(delta);
                } else {
                    s.noiseVariance *= std::exp(delta);
                }
                return GaussianProcess::logMarginalLikelihood(x, y, s);
            };
            const double numeric = (shifted(step) - shifted(-step)) / (2 * step);
            QVERIFY2(std::abs(numeric - gradient[i]) < 1e-5 * (1 + std::abs(numeric)),
                     qPrintable(QStringLiteral("parameter %1: analytic %2, numeric %3")
                                    .arg(i)
                                    .arg(gradient[i])
                                    .arg(numeric)));
        }
    }

    void fitIsReproducibleForTheSameStream() {
        Rng data(9);
        Eigen::MatrixXd x(25, 2);
        Eigen::VectorXd y(25);
        for (int i = 0; i < 25; ++i) {
            x(i, 0) = data.uniform01();
            x(i, 1) = data.uniform01();
            y[i] = x(i, 0) - 2 * x(i, 1) * x(i, 1);
        }
        GaussianProcess a;
        GaussianProcess b;
        Rng ra(10);
        Rng rb(10);
        a.fit(x, y, ra);
        b.fit(x, y, rb);
        QCOMPARE(a.hyperparameters().lengthScales, b.hyperparameters().lengthScales);
        QCOMPARE(a.hyperparameters().noiseVariance, b.hyperparameters().noiseVariance);
    }

    void duplicatePointsWithDifferentValuesStillFit() {
        // The same config evaluated twice with different outcomes (a noisy trial) makes K
        // singular without noise; the fit must come out finite, predicting their average.
        Eigen::MatrixXd x(6, 1);
        x << 0.2, 0.2, 0.5, 0.5, 0.8, 0.8;
        Eigen::VectorXd y(6);
        y << 1, 1.2, 0, 0.2, 1, 1.2;
        GaussianProcess gp;
        Rng rng(11);
        gp.fit(x, y, rng);
        double mean = 0;
        double variance = 0;
        gp.predict(at(0.5), &mean, &variance);
        QVERIFY(std::isfinite(mean) && std::isfinite(variance));
        QVERIFY(std::abs(mean - 0.1) < 0.1);
    }

    void givenHyperparametersAreKept() {
        const Eigen::MatrixXd x = evenly(8);
        GpHyperparameters h;
        h.lengthScales = Eigen::VectorXd::Constant(1, 0.25);
        h.signalVariance = 2;
        h.noiseVariance = 1e-3;
        GaussianProcess gp;
        gp.fit(x, sine(x, 1), h);
        QVERIFY(gp.isFitted());
        QCOMPARE(gp.hyperparameters().lengthScales[0], 0.25);
        QCOMPARE(gp.hyperparameters().noiseVariance, 1e-3);
        QCOMPARE(gp.dimensions(), 1);
    }

    void manyPointsStillInterpolate() {
        // Above the search's row limit the hyperparameters come from a subset; the posterior
        // still uses every point.
        Rng data(12);
        Eigen::MatrixXd x(400, 2);
        Eigen::VectorXd y(400);
        for (int i = 0; i < 400; ++i) {
            x(i, 0) = data.uniform01();
            x(i, 1) = data.uniform01();
            y[i] = std::sin(4 * x(i, 0)) + std::cos(3 * x(i, 1));
        }
        GaussianProcess gp;
        Rng rng(13);
        gp.fit(x, y, rng);
        double worst = 0;
        for (int i = 0; i < 400; i += 7) {
            worst = std::max(worst, std::abs(meanAt(gp, x.row(i).transpose()) - y[i]));
        }
        QVERIFY2(worst < 1e-2, qPrintable(QString::number(worst)));
    }
};

QTEST_APPLESS_MAIN(TestGaussianProcess)
#include "test_gaussian_process.moc"
