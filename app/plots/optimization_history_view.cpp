#include "plots/optimization_history_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace tunedeck::app {

namespace {

constexpr int kMarker = 7;         // the points' diameter in pixels
constexpr double kPickRadius = 6;  // how near a point the mouse must be to name its trial
const QColor kPointColour(31, 119, 180, 190);
const QColor kBestColour(214, 39, 40);

}  // namespace

OptimizationHistoryView::OptimizationHistoryView(const ExperimentData* data, QWidget* parent)
    : StudyPlot(data, parent) {
    axis_ = new QComboBox;
    axis_->setObjectName(QStringLiteral("historyAxis"));
    axis_->addItem(tr("by trial number"));
    axis_->addItem(tr("by time"));
    axis_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    title_ = new QLabel(tr("Each trial's value and the best so far"));
    controls()->addWidget(title_);
    controls()->addWidget(axis_);
    controls()->addStretch(1);
    connect(axis_, &QComboBox::currentIndexChanged, this, [this] { recomputeNow(); });
    marker_ = QPixmap(kMarker + 2, kMarker + 2);
    marker_.fill(Qt::transparent);
    QPainter painter(&marker_);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(kPointColour.darker(130), 1));
    painter.setBrush(kPointColour);
    painter.drawEllipse(QRectF(1, 1, kMarker, kMarker));
}

bool OptimizationHistoryView::byTime() const {
    return axis_->currentIndex() == 1;
}

void OptimizationHistoryView::setByTime(bool on) {
    axis_->setCurrentIndex(on ? 1 : 0);
}

void OptimizationHistoryView::recompute() {
    points_ = trialValues(*data_);
    // With several objectives no value is "the best": the Pareto front plot ranks them.
    best_ = data_->isMultiObjective() ? std::vector<QPointF>{}
                                      : bestSoFar(points_, byTime(), data_->minimize());
    title_->setText(data_->isMultiObjective()
                        ? tr("Each trial's value of the first objective, %1").arg(data_->metric())
                        : tr("Each trial's value and the best so far"));
    if (points_.empty()) {
        setNote(data_->metric().isEmpty()
                    ? tr("No experiment shown.")
                    : tr("No trial has reported “%1” yet.").arg(data_->metric()));
        return;
    }
    double xMin = 0, xMax = 0, yMin = points_.front().value, yMax = yMin;
    for (const TrialValue& v : points_) {
        const double x = byTime() ? v.time : v.number;
        xMin = std::min(xMin, x);
        xMax = std::max(xMax, x);
        yMin = std::min(yMin, v.value);
        yMax = std::max(yMax, v.value);
    }
    x_ =
        PlotAxis::linear(xMin, xMax, byTime() ? tr("seconds since the start") : tr("trial number"));
    y_ = PlotAxis::linear(yMin, yMax, valueTitle());
    if (best_.empty()) {
        setNote(tr("%n trial(s) with a value; the first of %1 objectives (their trade-off: the "
                   "Pareto front tab)",
                   nullptr, int(points_.size()))
                    .arg(data_->objectives().size()));
        return;
    }
    setNote(tr("%n trial(s) with a value; best so far %1 (%2)", nullptr, int(points_.size()))
                .arg(QString::number(best_.back().y(), 'g', 6),
                     data_->minimize() ? tr("lowest") : tr("highest")));
}

QStringList OptimizationHistoryView::markedBest() const {
    QStringList marked;
    for (const TrialValue& v : points_) {
        if (data_->isBest(v.row)) {
            marked << data_->trials()[std::size_t(v.row)].id;
        }
    }
    return marked;
}

QPointF OptimizationHistoryView::pixelOf(const TrialValue& value, const QRectF& area) const {
    return {pixelX(area, x_, byTime() ? value.time : value.number), pixelY(area, y_, value.value)};
}

void OptimizationHistoryView::paintPlot(QPainter& painter) {
    if (points_.empty()) {
        paintEmpty(painter);
        return;
    }
    const QRectF area = plotAreaIn(QRectF(canvas()->rect()).adjusted(0, 22, 0, 0));
    drawAxes(painter, palette(), area, x_, y_);
    painter.save();
    painter.setClipRect(area);
    const QPointF half(marker_.width() / 2.0, marker_.height() / 2.0);
    for (const TrialValue& v : points_) {
        painter.drawPixmap(pixelOf(v, area) - half, marker_);
    }
    // The best so far: a step after each trial that improved it.
    painter.setRenderHint(QPainter::Antialiasing, true);
    QPainterPath path;
    for (std::size_t i = 0; i < best_.size(); ++i) {
        const QPointF p(pixelX(area, x_, best_[i].x()), pixelY(area, y_, best_[i].y()));
        if (i == 0) {
            path.moveTo(p);
        } else {
            path.lineTo(p.x(), path.currentPosition().y());
            path.lineTo(p);
        }
    }
    painter.setPen(QPen(kBestColour, 2));
    painter.drawPath(path);
    // The selected trials ringed, the best trial by the scope (or the Pareto front) marked.
    painter.setBrush(Qt::NoBrush);
    for (const TrialValue& v : points_) {
        const QString& id = data_->trials()[std::size_t(v.row)].id;
        if (selected_.count(id) != 0) {
            painter.setPen(QPen(QColor(255, 127, 14), 2.5));
            painter.drawEllipse(pixelOf(v, area), 7, 7);
        }
        if (data_->isBest(v.row)) {
            painter.setPen(QPen(kBestColour, 2));
            painter.drawEllipse(pixelOf(v, area), 5, 5);
        }
    }
    painter.restore();
    // The legend above the plot.
    const QFontMetricsF metrics(painter.font());
    double x = area.left();
    const double y = 4 + metrics.height() / 2;
    painter.drawPixmap(QPointF(x, y) - QPointF(0, half.y()), marker_);
    x += marker_.width() + 4;
    painter.setPen(palette().color(QPalette::Text));
    const QString values = tr("Trial value");
    painter.drawText(QPointF(x, y + metrics.ascent() / 2 - 1), values);
    x += metrics.horizontalAdvance(values) + 16;
    if (!best_.empty()) {
        painter.setPen(QPen(kBestColour, 2));
        painter.drawLine(QPointF(x, y), QPointF(x + 18, y));
        x += 22;
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QPointF(x, y + metrics.ascent() / 2 - 1),
                         data_->minimize() ? tr("Best so far (min)") : tr("Best so far (max)"));
    } else if (data_->isMultiObjective()) {
        painter.setPen(QPen(kBestColour, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(QPointF(x + 5, y), 5, 5);
        x += 14;
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QPointF(x, y + metrics.ascent() / 2 - 1), tr("On the Pareto front"));
    }
    painter.drawText(QRectF(area.left(), 0, area.width(), 2 * y), Qt::AlignRight | Qt::AlignVCenter,
                     note());
}

QString OptimizationHistoryView::trialAt(QPointF pos) const {
    if (points_.empty()) {
        return {};
    }
    const QRectF area = plotAreaIn(QRectF(canvas()->rect()).adjusted(0, 22, 0, 0));
    double nearest = kPickRadius * kPickRadius;
    int found = -1;
    for (const TrialValue& v : points_) {
        const QPointF d = pixelOf(v, area) - pos;
        const double d2 = d.x() * d.x() + d.y() * d.y();
        if (d2 <= nearest) {
            nearest = d2;
            found = v.row;
        }
    }
    return found < 0 ? QString() : data_->trials()[std::size_t(found)].id;
}

}  // namespace tunedeck::app
