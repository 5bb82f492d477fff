#include "digits_mlp.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/rng.h"

namespace tunedeck::bench {

namespace {

constexpr int kPixels = 64;
constexpr int kClasses = 10;
constexpr int kValidation = 597;  // a third of the images: a 0.17% accuracy step
constexpr std::uint64_t kSplitSeed = 20240603;
constexpr float kBeta2 = 0.999F;
constexpr float kAdamEpsilon = 1e-8F;

// One line per image: the label, then the 64 pixel values (0..16).
const char* const kWriteCsv =
    "import sys\n"
    "from sklearn.datasets import load_digits\n"
    "d = load_digits()\n"
    "with open(sys.argv[1], 'w') as f:\n"
    "    for x, y in zip(d.data, d.target):\n"
    "        f.write('%d,' % y + ','.join('%d' % v for v in x) + '\\n')\n";

bool writeCsvWithPython(const QString& csvPath, QString* error) {
    QStringList candidates;
    if (const QString chosen = qEnvironmentVariable("TUNEDECK_BENCH_PYTHON"); !chosen.isEmpty()) {
        candidates << chosen;
    }
    // Debian's interpreter is the one python3-sklearn installs into; a python3 earlier on PATH
    // (pyenv, a virtualenv) may lack it.
    candidates << QStringLiteral("/usr/bin/python3") << QStringLiteral("python3");
    QDir().mkpath(QFileInfo(csvPath).absolutePath());
    const QString partial = csvPath + QStringLiteral(".partial");
    QStringList failures;
    for (const QString& python : candidates) {
        QProcess process;
        process.start(python, {QStringLiteral("-c"), QString::fromLatin1(kWriteCsv), partial});
        if (!process.waitForFinished(120'000) || process.exitStatus() != QProcess::NormalExit ||
            process.exitCode() != 0) {
            failures << QStringLiteral("%1: %2").arg(
                python,
                QString::fromLocal8Bit(process.readAllStandardError()).trimmed().right(200));
            continue;
        }
        QFile::remove(csvPath);
        if (QFile::rename(partial, csvPath)) {
            return true;
        }
    }
    *error = QStringLiteral("cannot write %1 (needs a python3 with scikit-learn): %2")
                 .arg(csvPath, failures.join(QStringLiteral("; ")));
    return false;
}

}  // namespace

QString defaultDigitsCsv() {
    return QStringLiteral(TUNEDECK_BENCH_DATA_DIR) + QStringLiteral("/digits.csv");
}

std::optional<DigitsData> loadDigits(const QString& csvPath, QString* error) {
    if (!QFileInfo::exists(csvPath) && !writeCsvWithPython(csvPath, error)) {
        return std::nullopt;
    }
    QFile file(csvPath);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read %1").arg(csvPath);
        return std::nullopt;
    }
    std::vector<std::vector<float>> images;
    std::vector<int> labels;
    while (!file.atEnd()) {
        const QList<QByteArray> fields = file.readLine().trimmed().split(',');
        if (fields.size() != kPixels + 1) {
            continue;
        }
        labels.push_back(fields[0].toInt());
        std::vector<float> pixels(kPixels);
        for (int i = 0; i < kPixels; ++i) {
            pixels[size_t(i)] = fields[i + 1].toFloat() / 16.0F;
        }
        images.push_back(std::move(pixels));
    }
    if (images.size() <= size_t(kValidation)) {
        *error = QStringLiteral("%1 holds %2 images; expected 1797 (delete it to rewrite it)")
                     .arg(csvPath)
                     .arg(images.size());
        return std::nullopt;
    }
    std::vector<size_t> order(images.size());
    std::iota(order.begin(), order.end(), size_t(0));
    Rng rng(kSplitSeed);
    for (size_t i = order.size() - 1; i > 0; --i) {
        std::swap(order[i], order[size_t(rng.integer(0, std::int64_t(i) + 1))]);
    }
    const auto train = order.size() - size_t(kValidation);
    DigitsData data;
    data.trainX.resize(kPixels, Eigen::Index(train));
    data.validX.resize(kPixels, kValidation);
    for (size_t k = 0; k < order.size(); ++k) {
        const auto& pixels = images[order[k]];
        const Eigen::Map<const Eigen::VectorXf> column(pixels.data(), kPixels);
        if (k < train) {
            data.trainX.col(Eigen::Index(k)) = column;
            data.trainY.push_back(labels[order[k]]);
        } else {
            data.validX.col(Eigen::Index(k - train)) = column;
            data.validY.push_back(labels[order[k]]);
        }
    }
    return data;
}

MlpTraining::MlpTraining(const DigitsData& data, const MlpConfig& config, std::uint64_t seed)
    : data_(data), config_(config), seed_(seed) {
    config_.width = std::max(1, config_.width);
    config_.batchSize = std::max(1, config_.batchSize);
    Rng rng = Rng::forStream(seed_, 0);
    auto he = [&rng](Eigen::MatrixXf& w, int fanIn) {
        const double sigma = std::sqrt(2.0 / fanIn);
        for (Eigen::Index i = 0; i < w.size(); ++i) {
            w.data()[i] = float(rng.normal(0, sigma));
        }
    };
    w1_.resize(config_.width, kPixels);
    w2_.resize(kClasses, config_.width);
    he(w1_, kPixels);
    he(w2_, config_.width);
    b1_ = Eigen::VectorXf::Zero(config_.width);
    b2_ = Eigen::VectorXf::Zero(kClasses);
    mW1_ = vW1_ = Eigen::MatrixXf::Zero(w1_.rows(), w1_.cols());
    mW2_ = vW2_ = Eigen::MatrixXf::Zero(w2_.rows(), w2_.cols());
    mB1_ = vB1_ = Eigen::VectorXf::Zero(b1_.size());
    mB2_ = vB2_ = Eigen::VectorXf::Zero(b2_.size());
}

double MlpTraining::trainEpoch() {
    const auto n = data_.trainX.cols();
    std::vector<Eigen::Index> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    // Each epoch has its own stream, so epoch k's order does not depend on anything before it.
    Rng rng = Rng::forStream(seed_, std::uint64_t(epochs_) + 1);
    for (size_t i = order.size() - 1; i > 0; --i) {
        std::swap(order[i], order[size_t(rng.integer(0, std::int64_t(i) + 1))]);
    }
    Eigen::MatrixXf batchX(kPixels, config_.batchSize);
    std::vector<int> batchY;
    for (Eigen::Index start = 0; start < n; start += config_.batchSize) {
        const Eigen::Index size = std::min<Eigen::Index>(config_.batchSize, n - start);
        batchX.resize(kPixels, size);
        batchY.resize(size_t(size));
        for (Eigen::Index j = 0; j < size; ++j) {
            const Eigen::Index source = order[size_t(start + j)];
            batchX.col(j) = data_.trainX.col(source);
            batchY[size_t(j)] = data_.trainY[size_t(source)];
        }
        step(batchX, batchY);
    }
    ++epochs_;
    return validationError();
}

void MlpTraining::step(const Eigen::MatrixXf& batchX, const std::vector<int>& batchY) {
    const auto size = batchX.cols();
    Eigen::MatrixXf hidden = ((w1_ * batchX).colwise() + b1_).cwiseMax(0.0F);
    Eigen::MatrixXf logits = (w2_ * hidden).colwise() + b2_;
    // Softmax cross-entropy: the gradient of the mean loss over logits is (p - onehot) / size.
    Eigen::RowVectorXf top = logits.colwise().maxCoeff();
    Eigen::MatrixXf p = (logits.rowwise() - top).array().exp();
    p.array().rowwise() /= p.colwise().sum().array();
    for (Eigen::Index j = 0; j < size; ++j) {
        p(batchY[size_t(j)], j) -= 1.0F;
    }
    p /= float(size);
    const float wd = float(config_.weightDecay);
    Eigen::MatrixXf gW2 = p * hidden.transpose() + wd * w2_;
    Eigen::VectorXf gB2 = p.rowwise().sum();
    Eigen::MatrixXf gHidden =
        (w2_.transpose() * p).cwiseProduct((hidden.array() > 0.0F).cast<float>().matrix());
    Eigen::MatrixXf gW1 = gHidden * batchX.transpose() + wd * w1_;
    Eigen::VectorXf gB1 = gHidden.rowwise().sum();

    ++adamSteps_;
    const float beta1 = float(config_.beta1);
    const float lr = float(config_.learningRate) *
                     std::sqrt(1.0F - std::pow(kBeta2, float(adamSteps_))) /
                     (1.0F - std::pow(beta1, float(adamSteps_)));
    auto adam = [&](auto& param, auto& m, auto& v, const auto& grad) {
        m = beta1 * m + (1.0F - beta1) * grad;
        v = kBeta2 * v + (1.0F - kBeta2) * grad.cwiseProduct(grad);
        param.array() -= lr * m.array() / (v.array().sqrt() + kAdamEpsilon);
    };
    adam(w1_, mW1_, vW1_, gW1);
    adam(b1_, mB1_, vB1_, gB1);
    adam(w2_, mW2_, vW2_, gW2);
    adam(b2_, mB2_, vB2_, gB2);
}

double MlpTraining::validationError() const {
    const Eigen::MatrixXf hidden = ((w1_ * data_.validX).colwise() + b1_).cwiseMax(0.0F);
    const Eigen::MatrixXf logits = (w2_ * hidden).colwise() + b2_;
    int wrong = 0;
    for (Eigen::Index j = 0; j < logits.cols(); ++j) {
        Eigen::Index best = 0;
        logits.col(j).maxCoeff(&best);
        // A diverged model (NaN logits) predicts nothing right.
        if (!std::isfinite(logits(best, j)) || int(best) != data_.validY[size_t(j)]) {
            ++wrong;
        }
    }
    return double(wrong) / double(logits.cols());
}

}  // namespace tunedeck::bench
