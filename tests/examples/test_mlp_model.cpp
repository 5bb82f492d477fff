// The CUDA example's model on its CPU path (resources/examples/cuda-mlp): gradients agree with
// numerical differences, a seed repeats bit for bit, a restored checkpoint continues exactly as
// an uninterrupted run, and the model learns the digits.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <random>

#include "backend.h"
#include "checkpoint.h"
#include "digits.h"
#include "mlp_math.h"
#include "trainer.h"

using namespace tunedeck::mlp;

class TestMlpModel : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void digitsSplitIsStratifiedAndTheSameEveryTime();
    void aBadCsvNamesItsLine();
    void gradientsMatchNumericalDifferences();
    void aSeedRepeatsBitForBitAndAnotherSeedDiffers();
    void restoringACheckpointContinuesExactlyAsAnUninterruptedRun();
    void aCheckpointOfAnotherShapeIsRefused();
    void itLearnsTheDigits();

  private:
    DigitsSplit data_;
};

namespace {

QString digitsCsv() {
    return QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples/cuda-mlp/digits.csv");
}

Hyperparameters smallModel(std::uint64_t seed) {
    Hyperparameters hp;
    hp.learningRate = 3e-3;
    hp.batchSize = 32;
    hp.width = 32;
    hp.depth = 2;
    hp.weightDecay = 1e-4;
    hp.seed = seed;
    return hp;
}

std::vector<EpochResult> train(Trainer& trainer, int epochs) {
    std::vector<EpochResult> results;
    for (int i = 0; i < epochs; ++i) {
        results.push_back(trainer.trainEpoch());
    }
    return results;
}

// Equal to the last bit (memcmp, so -0 and 0 or two NaNs would not pass as equal by accident).
bool identical(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool identical(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

QString describe(const EpochResult& r) {
    return QStringLiteral("epoch %1: train %2 val %3 acc %4")
        .arg(r.epoch)
        .arg(r.trainLoss, 0, 'g', 17)
        .arg(r.validationLoss, 0, 'g', 17)
        .arg(r.validationAccuracy, 0, 'g', 17);
}

void compareExactly(const std::vector<EpochResult>& a, const std::vector<EpochResult>& b) {
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY2(a[i].epoch == b[i].epoch && identical(a[i].trainLoss, b[i].trainLoss) &&
                     identical(a[i].validationLoss, b[i].validationLoss) &&
                     identical(a[i].validationAccuracy, b[i].validationAccuracy),
                 qPrintable(describe(a[i]) + " != " + describe(b[i])));
    }
}

}  // namespace

void TestMlpModel::initTestCase() {
    data_ = splitDigits(readDigitsCsv(digitsCsv().toStdString()));
}

void TestMlpModel::digitsSplitIsStratifiedAndTheSameEveryTime() {
    QCOMPARE(data_.train.rows() + data_.validation.rows(), 1797);
    QCOMPARE(data_.train.features, 64);
    QCOMPARE(data_.classes, 10);
    // Every class is in the validation split at about its share (a fifth of it).
    int perClass[10] = {};
    for (int label : data_.validation.labels) {
        ++perClass[label];
    }
    for (int c = 0; c < 10; ++c) {
        QVERIFY2(perClass[c] >= 34 && perClass[c] <= 37, qPrintable(QString::number(perClass[c])));
    }
    // Standardised with the training rows: each varying feature has mean 0 there.
    for (int f = 0; f < data_.train.features; ++f) {
        double sum = 0;
        for (int r = 0; r < data_.train.rows(); ++r) {
            sum += data_.train.x[static_cast<std::size_t>(r) * 64 + f];
        }
        QVERIFY(std::abs(sum / data_.train.rows()) < 1e-4);
    }
    const DigitsSplit again = splitDigits(readDigitsCsv(digitsCsv().toStdString()));
    QVERIFY(identical(again.validation.x, data_.validation.x));
    QCOMPARE(again.train.labels, data_.train.labels);
}

void TestMlpModel::aBadCsvNamesItsLine() {
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b,label\n1,2,3\n4,x,5\n");
    file.close();
    try {
        readDigitsCsv(path.toStdString());
        QFAIL("a bad CSV was read");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).endsWith("bad.csv:3: 'x' is not a number"), e.what());
    }
}

// The CPU path's own templates, in double, on a tiny net: the analytic gradient of the mean
// loss against central differences of the forward pass, for every parameter.
void TestMlpModel::gradientsMatchNumericalDifferences() {
    const Shape shape{5, 4, 2, 3};
    const int rows = 6;
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> x(static_cast<std::size_t>(rows) * shape.inputs);
    for (double& v : x) {
        v = uniform(random);
    }
    const std::vector<int> labels = {0, 1, 2, 2, 1, 0};
    const TrainingState init = initialState(shape, 3);
    std::vector<double> parameters(init.parameters.begin(), init.parameters.end());
    for (std::size_t i = shape.weightCount(); i < parameters.size(); ++i) {
        parameters[i] = 0.1 * uniform(random);  // non-zero biases, so their gradient matters
    }

    std::vector<std::vector<double>> activations;
    const auto meanLoss = [&](const std::vector<double>& p) {
        forward(shape, p.data(), x.data(), rows, activations);
        return softmaxCrossEntropy<double>(activations.back().data(), labels.data(), rows,
                                           shape.classes, nullptr)
                   .loss /
               rows;
    };
    forward(shape, parameters.data(), x.data(), rows, activations);
    BackwardBuffers<double> buffers;
    buffers.delta.resize(static_cast<std::size_t>(rows) * shape.classes);
    softmaxCrossEntropy<double>(activations.back().data(), labels.data(), rows, shape.classes,
                                buffers.delta.data());
    std::vector<double> gradient(parameters.size());
    backward(shape, parameters.data(), x.data(), rows, activations, buffers, gradient.data());

    const double h = 1e-6;
    double largest = 0;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        std::vector<double> plus = parameters, minus = parameters;
        plus[i] += h;
        minus[i] -= h;
        const double numerical = (meanLoss(plus) - meanLoss(minus)) / (2 * h);
        largest = std::max(largest, std::abs(numerical));
        QVERIFY2(std::abs(gradient[i] - numerical) <= 1e-7 + 1e-5 * std::abs(numerical),
                 qPrintable(QStringLiteral("parameter %1: backward %2, numerical %3")
                                .arg(i)
                                .arg(gradient[i], 0, 'g', 10)
                                .arg(numerical, 0, 'g', 10)));
    }
    QVERIFY(largest > 1e-3);  // the comparison was not between zeros
}

void TestMlpModel::aSeedRepeatsBitForBitAndAnotherSeedDiffers() {
    Trainer first(data_, smallModel(11),
                  makeCpuBackend(data_, shapeFor(smallModel(11), data_), 32));
    Trainer second(data_, smallModel(11),
                   makeCpuBackend(data_, shapeFor(smallModel(11), data_), 32));
    Trainer other(data_, smallModel(12),
                  makeCpuBackend(data_, shapeFor(smallModel(12), data_), 32));
    // The seed draws the initial weights, not only the shuffles.
    QVERIFY(!identical(first.state().parameters, other.state().parameters));
    const auto a = train(first, 3);
    const auto b = train(second, 3);
    const auto c = train(other, 3);
    compareExactly(a, b);
    QVERIFY(identical(first.state().parameters, second.state().parameters));
    QVERIFY(!identical(a.back().validationLoss, c.back().validationLoss));
    QVERIFY(!identical(first.state().parameters, other.state().parameters));
}

void TestMlpModel::restoringACheckpointContinuesExactlyAsAnUninterruptedRun() {
    const Hyperparameters hp = smallModel(5);
    const Shape shape = shapeFor(hp, data_);
    Trainer uninterrupted(data_, hp, makeCpuBackend(data_, shape, hp.batchSize));
    const auto expected = train(uninterrupted, 5);

    QTemporaryDir dir;
    {
        Trainer stopped(data_, hp, makeCpuBackend(data_, shape, hp.batchSize));
        train(stopped, 2);
        saveCheckpoint(dir.path().toStdString(), stopped.state());
    }
    Trainer restored(data_, hp, makeCpuBackend(data_, shape, hp.batchSize));
    restored.restore(loadCheckpoint(dir.path().toStdString()));
    QCOMPARE(restored.epoch(), 2LL);
    const auto continued = train(restored, 3);
    compareExactly({expected.begin() + 2, expected.end()}, continued);
    const TrainingState a = uninterrupted.state();
    const TrainingState b = restored.state();
    QCOMPARE(a.step, b.step);
    QVERIFY(identical(a.parameters, b.parameters));
    QVERIFY(identical(a.firstMoment, b.firstMoment));
    QVERIFY(identical(a.secondMoment, b.secondMoment));
}

void TestMlpModel::aCheckpointOfAnotherShapeIsRefused() {
    const Hyperparameters hp = smallModel(1);
    QTemporaryDir dir;
    Trainer small(data_, hp, makeCpuBackend(data_, shapeFor(hp, data_), hp.batchSize));
    saveCheckpoint(dir.path().toStdString(), small.state());

    Hyperparameters wider = hp;
    wider.width = 48;
    Trainer other(data_, wider, makeCpuBackend(data_, shapeFor(wider, data_), hp.batchSize));
    try {
        other.restore(loadCheckpoint(dir.path().toStdString()));
        QFAIL("a checkpoint of width 32 was loaded into width 48");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("width 32") && QString(e.what()).contains("width 48"),
                 e.what());
    }

    QFile file(dir.filePath(kCheckpointFile));
    QVERIFY(file.resize(100));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadCheckpoint(dir.path().toStdString()));
}

void TestMlpModel::itLearnsTheDigits() {
    Hyperparameters hp;
    hp.learningRate = 3e-3;
    hp.batchSize = 32;
    hp.width = 64;
    hp.depth = 1;
    hp.weightDecay = 1e-4;
    Trainer trainer(data_, hp, makeCpuBackend(data_, shapeFor(hp, data_), hp.batchSize));
    const auto results = train(trainer, 5);
    QVERIFY2(results.back().validationAccuracy > 0.9, qPrintable(describe(results.back())));
    QVERIFY2(results.back().validationLoss < results.front().validationLoss,
             qPrintable(describe(results.front()) + " / " + describe(results.back())));
    QVERIFY(results.back().samplesPerSecond > 0);
}

QTEST_GUILESS_MAIN(TestMlpModel)
#include "test_mlp_model.moc"
