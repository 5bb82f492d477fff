#include "plots/contour_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "charts/parameter_scale.h"

namespace tunedeck::app {

namespace {

constexpr int kCells = 48;        // the surface's resolution per side
constexpr double kReach = 0.25;   // blank beyond this share of a side from every trial
constexpr double kBarWidth = 14;  // the colour bar
constexpr double kBarRoom = 90;   // the bar, its labels and its title, right of the plot
constexpr double kPickRadius = 6;

PlotAxis axisOf(const ParameterScale& scale) {
    switch (scale.kind) {
        case ParameterScale::Kind::Categorical:
            return PlotAxis::categorical(scale.categories, scale.key);
        case ParameterScale::Kind::Log:
            return PlotAxis::log(scale.min, scale.max, scale.key);
        case ParameterScale::Kind::Linear:
            break;
    }
    return PlotAxis::linear(scale.min, scale.max, scale.key);
}

// A config value as a position on `axis`: the number, or the category's index.
double positionOn(const ParameterScale& scale, const QJsonValue& value) {
    if (scale.kind == ParameterScale::Kind::Categorical) {
        const int index = scale.categoryOf(value);
        return index < 0 ? kNoValue : double(index);
    }
    return value.isDouble() ? value.toDouble() : kNoValue;
}

}  // namespace

ContourView::ContourView(const ExperimentData* data, QWidget* parent) : StudyPlot(data, parent) {
    xBox_ = new QComboBox;
    yBox_ = new QComboBox;
    xBox_->setObjectName(QStringLiteral("contourX"));
    yBox_->setObjectName(QStringLiteral("contourY"));
    for (QComboBox* box : {xBox_, yBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(box, &QComboBox::currentIndexChanged, this, [this] { recomputeNow(); });
    }
    auto* xLabel = new QLabel(tr("&x:"));
    xLabel->setBuddy(xBox_);
    auto* yLabel = new QLabel(tr("&y:"));
    yLabel->setBuddy(yBox_);
    controls()->addWidget(xLabel);
    controls()->addWidget(xBox_);
    controls()->addWidget(yLabel);
    controls()->addWidget(yBox_);
    controls()->addStretch(1);
}

void ContourView::setParameters(const QString& x, const QString& y) {
    recomputeNow();
    xBox_->setCurrentIndex(xBox_->findText(x));
    yBox_->setCurrentIndex(yBox_->findText(y));
}

QRectF ContourView::area() const {
    // The bar, then its words ("worst" is "schlechtester" in German) and values, whole.
    const QFontMetricsF metrics(canvas()->font());
    double widest = 0;
    for (const QString& text : {tr("best"), tr("worst"), shortNumber(best_), shortNumber(worst_)}) {
        widest = std::max(widest, metrics.horizontalAdvance(text));
    }
    const double room = std::max(kBarRoom, 14 + kBarWidth + 4 + widest + 4);
    return plotAreaIn(QRectF(canvas()->rect()).adjusted(0, 16, -room, 0));
}

void ContourView::recompute() {
    const std::vector<ParameterScale> scales = parameterScales(*data_);
    if (keys_ != data_->configKeys()) {
        keys_ = data_->configKeys();
        QString x = xBox_->currentText();
        QString y = yBox_->currentText();
        if (x.isEmpty() || y.isEmpty()) {
            // The first two parameters that vary.
            QStringList varying;
            for (const ParameterScale& scale : scales) {
                if (scale.varies()) {
                    varying << scale.key;
                }
            }
            x = varying.value(0, keys_.value(0));
            y = varying.value(1, keys_.value(1));
        }
        for (QComboBox* box : {xBox_, yBox_}) {
            const QSignalBlocker block(box);
            box->clear();
            box->addItems(keys_);
        }
        xBox_->setCurrentIndex(std::max(0, int(keys_.indexOf(x))));
        yBox_->setCurrentIndex(std::max(0, int(keys_.indexOf(y))));
    }
    samples_.clear();
    rows_.clear();
    values_.clear();
    surface_ = {};
    image_ = {};
    const auto scaleOf = [&](const QString& key) -> const ParameterScale* {
        for (const ParameterScale& scale : scales) {
            if (scale.key == key) {
                return &scale;
            }
        }
        return nullptr;
    };
    const ParameterScale* xs = scaleOf(xBox_->currentText());
    const ParameterScale* ys = scaleOf(yBox_->currentText());
    const std::vector<TrialValue> values = trialValues(*data_);
    if (xs == nullptr || ys == nullptr || xs == ys) {
        setNote(keys_.size() < 2 ? tr("A contour needs two parameters.")
                                 : tr("Pick two different parameters."));
        return;
    }
    x_ = axisOf(*xs);
    y_ = axisOf(*ys);
    for (const TrialValue& v : values) {
        const TrialRow& row = data_->trials()[std::size_t(v.row)];
        const double fx = x_.fraction(positionOn(*xs, row.flatConfig.value(xs->key)));
        const double fy = y_.fraction(positionOn(*ys, row.flatConfig.value(ys->key)));
        if (std::isnan(fx) || std::isnan(fy)) {
            continue;
        }
        samples_.emplace_back(fx, fy);
        rows_.push_back(v.row);
        values_.push_back(v.value);
    }
    if (samples_.empty()) {
        setNote(values.empty() && !data_->metric().isEmpty()
                    ? tr("No trial has reported “%1” yet.").arg(data_->metric())
                    : tr("No trial has both parameters and a value."));
        return;
    }
    const auto [lo, hi] = std::minmax_element(values_.begin(), values_.end());
    best_ = data_->minimize() ? *lo : *hi;
    worst_ = data_->minimize() ? *hi : *lo;
    surface_ = interpolateSurface(samples_, values_, kCells, kCells, kReach);
    image_ = QImage(kCells, kCells, QImage::Format_ARGB32);
    image_.fill(Qt::transparent);
    for (int r = 0; r < kCells; ++r) {
        for (int c = 0; c < kCells; ++c) {
            const double v = surface_.at(c, r);
            if (std::isnan(v)) {
                continue;
            }
            const double goodness = best_ == worst_ ? 1.0 : (v - worst_) / (best_ - worst_);
            image_.setPixelColor(c, kCells - 1 - r, sequentialColour(goodness));
        }
    }
    setNote(tr("%n trial(s) drawn", nullptr, int(samples_.size())));
}

void ContourView::paintPlot(QPainter& painter) {
    if (samples_.empty()) {
        paintEmpty(painter);
        return;
    }
    const QRectF plot = area();
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.drawImage(plot, image_);
    painter.restore();
    drawAxes(painter, palette(), plot, x_, y_);
    painter.save();
    painter.setClipRect(plot);
    painter.setRenderHint(QPainter::Antialiasing, samples_.size() < 2000);
    for (std::size_t i = 0; i < samples_.size(); ++i) {
        const QPointF at(plot.left() + samples_[i].x() * plot.width(),
                         plot.bottom() - samples_[i].y() * plot.height());
        const bool chosen = selected_.count(data_->trials()[std::size_t(rows_[i])].id) != 0;
        painter.setPen(
            QPen(chosen ? QColor(255, 127, 14) : QColor(0, 0, 0, 200), chosen ? 2.5 : 1));
        painter.setBrush(QColor(255, 255, 255, 220));
        painter.drawEllipse(at, chosen ? 5.0 : 3.0, chosen ? 5.0 : 3.0);
    }
    painter.restore();
    // The colour bar: best at the top.
    const QFontMetricsF metrics(painter.font());
    const QRectF bar(plot.right() + 14, plot.top(), kBarWidth, plot.height());
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    for (int i = 0; i <= 4; ++i) {
        gradient.setColorAt(i / 4.0, sequentialColour(1.0 - i / 4.0));
    }
    painter.fillRect(bar, gradient);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawRect(bar);
    const double textLeft = bar.right() + 4;
    const double room = canvas()->width() - textLeft - 2;
    const auto label = [&](double y, const QString& text) {
        painter.drawText(QRectF(textLeft, y, room, metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(text, Qt::ElideRight, room));
    };
    label(bar.top(), shortNumber(best_));
    label(bar.top() + metrics.height(), tr("best"));
    label(bar.bottom() - 2 * metrics.height(), tr("worst"));
    label(bar.bottom() - metrics.height(), shortNumber(worst_));
    painter.drawText(QRectF(plot.left(), 0, plot.width(), plot.top()),
                     Qt::AlignRight | Qt::AlignBottom, note());
}

QString ContourView::trialAt(QPointF pos) const {
    const QRectF plot = area();
    double nearest = kPickRadius * kPickRadius;
    int found = -1;
    for (std::size_t i = 0; i < samples_.size(); ++i) {
        const QPointF d = QPointF(plot.left() + samples_[i].x() * plot.width(),
                                  plot.bottom() - samples_[i].y() * plot.height()) -
                          pos;
        const double d2 = d.x() * d.x() + d.y() * d.y();
        if (d2 <= nearest) {
            nearest = d2;
            found = rows_[i];
        }
    }
    return found < 0 ? QString() : data_->trials()[std::size_t(found)].id;
}

}  // namespace tunedeck::app
