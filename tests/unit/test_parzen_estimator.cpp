// The Parzen estimators of the tpe searcher: Optuna 3.1's numbers (observation weights,
// component weights, bandwidths, categorical rows and log densities), log densities that sum every
// component despite logPdf's shortcuts, and draws that follow the mixture.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "core/parzen_estimator.h"
#include "core/rng.h"
#include "core/tpe_searcher.h"
#include "space_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

// The history the Optuna reference numbers below were computed from: 40 trials with
// x_i = (i * golden) mod 1, option (7i + 3) mod 4, loss (x - 0.3)^2 + 0.05 * option.
constexpr int kScripted = 40;
double scriptedX(int i) {
    return std::fmod(i * 0.6180339887498949, 1.0);
}
int scriptedOption(int i) {
    return (i * 7 + 3) % 4;
}
double scriptedLoss(int i) {
    const double x = scriptedX(i) - 0.3;
    return x * x + 0.05 * scriptedOption(i);
}

// Fits the good and bad estimators of one parameter as the searcher does: split by
// tpeBestFirst / tpeGoodCount, default weights in trial order, the domain's model space.
void fitScripted(const Domain& domain, const std::function<double(int)>& valueOf,
                 tpe::ParzenEstimator& good, tpe::ParzenEstimator& bad) {
    std::vector<std::vector<double>> losses;
    for (int i = 0; i < kScripted; ++i) {
        losses.push_back({scriptedLoss(i)});
    }
    const std::vector<std::size_t> order = tpeBestFirst(losses);
    std::vector<bool> isGood(kScripted, false);
    for (std::size_t k = 0; k < tpeGoodCount(TpeOptions(), kScripted); ++k) {
        isGood[order[k]] = true;
    }
    const tpe::Axis axis = tpe::axisOf(domain);
    std::vector<double> goodValues, badValues, goodWeights, badWeights;
    for (int i = 0; i < kScripted; ++i) {
        (isGood[i] ? goodValues : badValues).push_back(tpe::toModel(domain, axis, valueOf(i)));
    }
    tpe::defaultWeights(goodValues.size(), goodWeights);
    tpe::defaultWeights(badValues.size(), badWeights);
    good.fit({&axis, 1}, goodValues, goodValues.size(), goodWeights, {});
    bad.fit({&axis, 1}, badValues, badValues.size(), badWeights, {});
}

void compareLogPdf(const Domain& domain, const tpe::ParzenEstimator& estimator,
                   const std::vector<double>& at, const std::vector<double>& optuna) {
    const tpe::Axis axis = tpe::axisOf(domain);
    for (std::size_t k = 0; k < at.size(); ++k) {
        const double x = tpe::toModel(domain, axis, at[k]);
        const double ours = estimator.logPdf({&x, 1});
        if (std::abs(ours - optuna[k]) > 1e-9) {
            QFAIL(qPrintable(QStringLiteral("log pdf at %1: %2, Optuna %3")
                                 .arg(at[k])
                                 .arg(ours, 0, 'g', 17)
                                 .arg(optuna[k], 0, 'g', 17)));
        }
    }
}

// The mixture's log density (log mass for discrete axes) summed over every component, from the
// estimator's weights, centres and bandwidths: what logPdf computes with its shortcuts.
double bruteLogPdf(const tpe::ParzenEstimator& estimator, const std::vector<tpe::Axis>& axes,
                   const std::vector<double>& point) {
    auto cdf = [](double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); };
    double sum = 0;
    for (std::size_t k = 0; k < estimator.components(); ++k) {
        double p = estimator.weights()[k];
        for (std::size_t j = 0; j < axes.size(); ++j) {
            const tpe::Axis& axis = axes[j];
            const double mu = estimator.mus(j)[k];
            const double sigma = estimator.sigmas(j)[k];
            const double mass = cdf((axis.high - mu) / sigma) - cdf((axis.low - mu) / sigma);
            if (axis.kind == tpe::Axis::Kind::Continuous) {
                const double z = (point[j] - mu) / sigma;
                p *= std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi) /
                     mass;  // Optuna 3.1: no 1/sigma
            } else {
                const double lower = std::max(point[j] - axis.step / 2, axis.low);
                const double upper = std::min(point[j] + axis.step / 2, axis.high);
                p *= (cdf((upper - mu) / sigma) - cdf((lower - mu) / sigma)) / mass;
            }
        }
        sum += p;
    }
    return std::log(sum);
}

}  // namespace

class TestParzenEstimator : public QObject {
    Q_OBJECT

  private slots:
    void defaultWeightsAreOptunas() {
        // optuna.samplers._tpe.sampler.default_weights(30): a ramp for the 5 oldest.
        std::vector<double> weights;
        tpe::defaultWeights(30, weights);
        QCOMPARE(weights.size(), std::size_t(30));
        QCOMPARE(weights[0], 0.03333333333333333);
        QCOMPARE(weights[1], 0.275);
        QCOMPARE(weights[3], 0.7583333333333333);
        QCOMPARE(weights[4], 1.0);
        QCOMPARE(weights[29], 1.0);
        tpe::defaultWeights(24, weights);
        QVERIFY(std::all_of(weights.begin(), weights.end(), [](double w) { return w == 1; }));
    }

    void categoricalEstimatorMatchesOptuna() {
        // Reference from Optuna 3.1: scores (-inf, [loss_i]) of the scripted history went
        // through _split_observation_pairs(scores, default_gamma(40), None) (good trials 7, 15,
        // 23, 31), then _ParzenEstimator({"x": options[idx]}, {"x":
        // CategoricalDistribution(["a","b","c","d"])}, default parameters) for each part;
        // the numbers are its _weights, _categorical_weights and log_pdf at options 0..3.
        const Domain options = choice({"a", "b", "c", "d"});
        tpe::ParzenEstimator good, bad;
        fitScripted(
            options, [](int i) { return double(scriptedOption(i)); }, good, bad);
        QCOMPARE(good.components(), std::size_t(5));
        QCOMPARE(bad.components(), std::size_t(37));
        QCOMPARE(good.weights()[0], 0.2);
        QVERIFY(qFuzzyCompare(bad.weights()[0], 0.0008775778850373));
        QVERIFY(qFuzzyCompare(bad.weights()[1], 0.00394910048266784));
        QVERIFY(qFuzzyCompare(bad.weights()[2], 0.00702062308029838));
        QVERIFY(qFuzzyCompare(bad.weights()[36], 0.03159280386134269));
        QVERIFY(qFuzzyCompare(good.categoricalWeight(0, 0, 0), 0.6666666666666667));
        QVERIFY(qFuzzyCompare(good.categoricalWeight(0, 0, 1), 0.11111111111111113));
        QVERIFY(qFuzzyCompare(good.categoricalWeight(0, 4, 2), 0.25));
        QVERIFY(qFuzzyCompare(bad.categoricalWeight(0, 0, 0), 0.02439024390243903));
        QVERIFY(qFuzzyCompare(bad.categoricalWeight(0, 0, 3), 0.9268292682926829));
        compareLogPdf(
            options, good, {0, 1, 2, 3},
            {-0.5389965007326868, -1.9740810260220096, -1.9740810260220096, -1.9740810260220096});
        compareLogPdf(
            options, bad, {0, 1, 2, 3},
            {-1.6972951184132847, -1.2708626191922372, -1.3009467710923792, -1.3319641263840059});
    }

    void numericEstimatorsMatchOptuna() {
        // Same history and split as above; Optuna's distribution for each domain is written
        // beside it; the numbers are its _sigmas and log_pdf, computed with Optuna 3.1 (a
        // continuous component's density without 1/sigma, as 3.1's _truncnorm.logpdf). One
        // departure: bandwidths of tied values follow a stable sort (np.argsort(kind="stable");
        // 3.1's default quicksort leaves the order of ties unspecified); at the points checked
        // here both orders give the same numbers.
        tpe::ParzenEstimator good, bad;
        // FloatDistribution(0, 1)
        fitScripted(uniform(0, 1), scriptedX, good, bad);
        QVERIFY(qFuzzyCompare(good.sigmas(0)[0], 0.17376207875073568));
        QVERIFY(qFuzzyCompare(bad.sigmas(0)[2], 0.05572809000084078));
        QVERIFY(qFuzzyCompare(bad.sigmas(0)[0], 0.02631578947368421));
        compareLogPdf(uniform(0, 1), good, {0.0, 0.25, 0.3, 0.5, 0.99},
                      {-1.1390848808201075, -0.6355458784651008, -0.6667380454263405,
                       -1.12939083596782, -1.6881555894426186});
        compareLogPdf(uniform(0, 1), bad, {0.0, 0.25, 0.3, 0.5, 0.99},
                      {-2.8507834415681517, -2.765356202011813, -2.7629965811264605,
                       -2.61166888148267, -2.9660281507438135});
        // IntDistribution(0, 9)
        fitScripted(
            randint(0, 10), [](int i) { return std::floor(scriptedX(i) * 10); }, good, bad);
        compareLogPdf(randint(0, 10), good, {0, 3, 9},
                      {-2.0589334629104927, -1.7024147593680776, -3.9668745497456315});
        compareLogPdf(randint(0, 10), bad, {0, 3, 9},
                      {-2.1403991114928753, -2.489625465064992, -2.3792541994734804});
        // FloatDistribution(1e-3, 1, log=True)
        const auto logValue = [](int i) { return std::pow(10.0, -3 * (1 - scriptedX(i))); };
        fitScripted(loguniform(1e-3, 1), logValue, good, bad);
        compareLogPdf(loguniform(1e-3, 1), good, {1e-3, 0.01, 0.5},
                      {-1.1390848808201075, -0.7123185329721795, -1.6460017515367165});
        compareLogPdf(loguniform(1e-3, 1), bad, {1e-3, 0.01, 0.5},
                      {-2.85078344156815, -2.7666671076452416, -2.7070823023491917});
        // FloatDistribution(0, 1, step=0.1)
        const auto stepValue = [](int i) { return std::nearbyint(scriptedX(i) * 10) / 10; };
        fitScripted(quniform(0, 1, 0.1), stepValue, good, bad);
        compareLogPdf(quniform(0, 1, 0.1), good, {0.0, 0.3, 1.0},
                      {-2.3498142580003814, -1.6853406212925413, -4.061401836758167});
        compareLogPdf(quniform(0, 1, 0.1), bad, {0.0, 0.3, 1.0},
                      {-2.675928025338385, -3.065335954407463, -3.250482022007951});
        // IntDistribution(1, 100, log=True)
        const auto logInt = [](int i) { return 1 + std::floor(scriptedX(i) * 99); };
        fitScripted(lograndint(1, 101), logInt, good, bad);
        compareLogPdf(lograndint(1, 101), good, {1, 10, 100},
                      {-1.6320608834414705, -0.877457608527371, -1.266545114794479});
        compareLogPdf(lograndint(1, 101), bad, {1, 10, 100},
                      {-3.201007332905256, -2.554011703124415, -2.208369866224084});
    }

    void logPdfSumsEveryComponent_data() {
        QTest::addColumn<bool>("discrete");
        QTest::addColumn<bool>("magicClip");
        QTest::newRow("continuous") << false << true;
        QTest::newRow("discrete") << true << true;
        QTest::newRow("continuous, no magic clip") << false << false;
        QTest::newRow("discrete, no magic clip") << true << false;
    }
    void logPdfSumsEveryComponent() {
        // 1,000 observations, most in a cluster, with repeats: logPdf's window over sorted
        // components and its merging of repeated ones must give the full sum.
        QFETCH(bool, discrete);
        QFETCH(bool, magicClip);
        tpe::Axis axis;
        axis.low = discrete ? -0.5 : 0;
        axis.high = discrete ? 99.5 : 100;
        axis.kind = discrete ? tpe::Axis::Kind::Discrete : tpe::Axis::Kind::Continuous;
        axis.step = discrete ? 1 : 0;
        Rng rng(3);
        std::vector<double> points;
        for (int i = 0; i < 1000; ++i) {
            double x = i % 3 ? std::clamp(rng.normal(30, 4), 0.0, 99.0) : rng.uniform(0, 99);
            points.push_back(discrete ? std::round(x) : x);
        }
        std::vector<double> weights;
        tpe::defaultWeights(points.size(), weights);
        tpe::EstimatorOptions options;
        options.considerMagicClip = magicClip;
        tpe::ParzenEstimator estimator;
        estimator.fit({&axis, 1}, points, points.size(), weights, options);
        for (double x = 0; x <= 99; x += discrete ? 3 : 2.3) {
            const double ours = estimator.logPdf({&x, 1});
            const double brute = bruteLogPdf(estimator, {axis}, {x});
            QVERIFY2(std::abs(ours - brute) < 1e-10,
                     qPrintable(QStringLiteral("at %1: %2 vs %3").arg(x).arg(ours).arg(brute)));
        }

        // Two axes (multivariate): the shortcuts of the discrete axis, every component summed.
        tpe::Axis continuous;
        continuous.high = 100;
        const std::vector<tpe::Axis> both = {continuous, axis};
        std::vector<double> rows;
        for (std::size_t i = 0; i < points.size(); ++i) {
            rows.push_back(points[points.size() - 1 - i]);
            rows.push_back(points[i]);
        }
        options.multivariate = true;
        estimator.fit(both, rows, points.size(), weights, options);
        for (double x = 0; x <= 99; x += 7) {
            const std::vector<double> point = {99 - x, discrete ? x : x + 0.5};
            const double ours = estimator.logPdf(point);
            const double brute = bruteLogPdf(estimator, both, point);
            QVERIFY2(std::abs(ours - brute) < 1e-10,
                     qPrintable(QStringLiteral("at %1: %2 vs %3").arg(x).arg(ours).arg(brute)));
        }
    }

    void drawsFollowTheMixture() {
        // One observation at 0.8 and the prior N(0.5, 1) on [0, 1], equally weighted. The
        // observation's bandwidth is its distance to the prior's centre, 0.3, raised by the magic
        // clip to 1/3. The mixture's mean is the mean of the two truncated normals' means (0.5
        // for the prior, by symmetry).
        const tpe::Axis axis;
        const std::vector<double> points{0.8};
        const std::vector<double> weights{1.0};
        tpe::ParzenEstimator estimator;
        estimator.fit({&axis, 1}, points, 1, weights, {});
        const double sigma = 1.0 / 3;
        QCOMPARE(estimator.sigmas(0)[0], sigma);
        const double alpha = -0.8 / sigma;
        const double beta = 0.2 / sigma;
        auto pdf = [](double z) {
            return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
        };
        auto cdf = [](double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); };
        const double observedMean =
            0.8 + sigma * (pdf(alpha) - pdf(beta)) / (cdf(beta) - cdf(alpha));
        const double expected = 0.5 * observedMean + 0.5 * 0.5;
        Rng rng(7);
        double sum = 0;
        const int draws = 200000;
        for (int i = 0; i < draws; ++i) {
            double x = 0;
            estimator.sample(rng, {&x, 1});
            QVERIFY(x >= 0 && x <= 1);
            sum += x;
        }
        QVERIFY2(std::abs(sum / draws - expected) < 0.003,
                 qPrintable(QStringLiteral("mean %1, expected %2").arg(sum / draws).arg(expected)));
    }
};

QTEST_GUILESS_MAIN(TestParzenEstimator)
#include "test_parzen_estimator.moc"
