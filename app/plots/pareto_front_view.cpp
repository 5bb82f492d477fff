#include "plots/pareto_front_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "models/config_text.h"
#include "models/pareto_front.h"

namespace tunedeck::app {

namespace {

constexpr double kFrontRadius = 5;       // the front's points
constexpr double kOtherRadius = 3.5;     // the dominated trials' points
constexpr double kPickRadius = 7;        // how near a point the mouse must be to name its trial
constexpr double kLegendHeight = 22;     // the legend's row above the plot
const QColor kFrontColour(214, 39, 40);  // the red of the best trial in the other plots

}  // namespace

ParetoFrontView::ParetoFrontView(const ExperimentData* data, QWidget* parent)
    : StudyPlot(data, parent) {
    xPick_ = new QComboBox;
    xPick_->setObjectName(QStringLiteral("paretoX"));
    yPick_ = new QComboBox;
    yPick_->setObjectName(QStringLiteral("paretoY"));
    for (QComboBox* pick : {xPick_, yPick_}) {
        pick->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        connect(pick, &QComboBox::currentIndexChanged, this, [this] { recomputeNow(); });
    }
    controls()->addWidget(new QLabel(tr("Objective on x")));
    controls()->addWidget(xPick_);
    controls()->addWidget(new QLabel(tr("on y")));
    controls()->addWidget(yPick_);
    controls()->addStretch(1);
}

void ParetoFrontView::setAxes(int xObjective, int yObjective) {
    fillPickers();
    xPick_->setCurrentIndex(xObjective);
    yPick_->setCurrentIndex(yObjective);
    recomputeNow();
}

int ParetoFrontView::xObjective() const {
    return xPick_->currentIndex();
}

int ParetoFrontView::yObjective() const {
    return yPick_->currentIndex();
}

void ParetoFrontView::fillPickers() {
    QStringList names;
    for (const Objective& objective : data_->objectives()) {
        names << QStringLiteral("%1 (%2)").arg(objective.metric, metricModeName(objective.mode));
    }
    if (names == pickerNames_) {
        return;
    }
    pickerNames_ = names;
    for (QComboBox* pick : {xPick_, yPick_}) {
        const QSignalBlocker quiet(pick);
        pick->clear();
        pick->addItems(names);
    }
    // Optuna's default: the first objective across, the second up.
    const QSignalBlocker quietX(xPick_);
    const QSignalBlocker quietY(yPick_);
    xPick_->setCurrentIndex(names.isEmpty() ? -1 : 0);
    yPick_->setCurrentIndex(names.size() < 2 ? -1 : 1);
}

void ParetoFrontView::recompute() {
    fillPickers();
    points_.clear();
    line_.clear();
    frontCount_ = 0;
    const std::vector<Objective>& objectives = data_->objectives();
    if (!data_->isMultiObjective()) {
        setNote(data_->metric().isEmpty()
                    ? tr("No experiment shown.")
                    : tr("The Pareto front needs several objectives (metric: [loss, "
                         "latency_ms] with a mode each); this experiment has one, %1.")
                          .arg(data_->metric()));
        return;
    }
    const int xi = std::max(0, xObjective());
    const int yi = std::max(0, yObjective());
    const std::vector<int>& front = data_->paretoFront();
    std::vector<Point> onFront;
    for (int r = 0; r < int(data_->trials().size()); ++r) {
        const double x = data_->objectiveScore(r, std::size_t(xi));
        const double y = data_->objectiveScore(r, std::size_t(yi));
        if (!std::isfinite(x) || !std::isfinite(y)) {
            continue;
        }
        const bool member = std::binary_search(front.begin(), front.end(), r);
        (member ? onFront : points_).push_back(Point{r, x, y, member});
    }
    frontCount_ = int(onFront.size());
    points_.insert(points_.end(), onFront.begin(), onFront.end());
    if (points_.empty()) {
        setNote(
            tr("No trial has reported every objective (%1) yet.").arg(objectivesText(objectives)));
        return;
    }
    // With two objectives the front is a line: each member beats the next on one objective and
    // loses on the other. With more, its members seen on two axes are no line.
    if (objectives.size() == 2 && xi != yi) {
        std::sort(onFront.begin(), onFront.end(), [](const Point& a, const Point& b) {
            return a.x != b.x ? a.x < b.x : a.y < b.y;
        });
        for (const Point& p : onFront) {
            line_.emplace_back(p.x, p.y);
        }
    }
    double xMin = points_.front().x, xMax = xMin, yMin = points_.front().y, yMax = yMin;
    for (const Point& p : points_) {
        xMin = std::min(xMin, p.x);
        xMax = std::max(xMax, p.x);
        yMin = std::min(yMin, p.y);
        yMax = std::max(yMax, p.y);
    }
    const QString scope = scoreScopeText(data_->scope());
    x_ = PlotAxis::linear(xMin, xMax, tr("%1, %2").arg(xPick_->currentText(), scope));
    y_ = PlotAxis::linear(yMin, yMax, tr("%1, %2").arg(yPick_->currentText(), scope));
    setNote(
        tr("%1 of %n trial(s) on the Pareto front", nullptr, int(points_.size())).arg(frontCount_));
}

void ParetoFrontView::makeMarkers(const QColor& dim, qreal pixelRatio) {
    if (markerDim_ == dim && !frontMarker_.isNull() &&
        frontMarker_.devicePixelRatio() == pixelRatio) {
        return;
    }
    markerDim_ = dim;
    const auto draw = [pixelRatio](double radius, const QPen& pen, const QColor& fill) {
        const int side = int(std::ceil(2 * radius + 2));
        QPixmap marker(QSize(side, side) * pixelRatio);
        marker.setDevicePixelRatio(pixelRatio);
        marker.fill(Qt::transparent);
        QPainter painter(&marker);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(pen);
        painter.setBrush(fill);
        painter.drawEllipse(QPointF(side / 2.0, side / 2.0), radius, radius);
        return marker;
    };
    frontMarker_ = draw(kFrontRadius, QPen(kFrontColour.darker(140), 1), kFrontColour);
    otherMarker_ = draw(kOtherRadius, Qt::NoPen, dim);
}

QRectF ParetoFrontView::plotArea() const {
    return plotAreaIn(QRectF(canvas()->rect()).adjusted(0, kLegendHeight, 0, 0));
}

QPointF ParetoFrontView::pixelOf(const Point& point, const QRectF& area) const {
    return {pixelX(area, x_, point.x), pixelY(area, y_, point.y)};
}

void ParetoFrontView::paintPlot(QPainter& painter) {
    if (points_.empty()) {
        paintEmpty(painter);
        return;
    }
    const QRectF area = plotArea();
    drawAxes(painter, palette(), area, x_, y_);
    painter.save();
    painter.setClipRect(area);
    painter.setRenderHint(QPainter::Antialiasing, true);
    // The dominated trials faint, in the text's colour so they read on light and dark palettes.
    QColor dim = palette().color(QPalette::Text);
    dim.setAlpha(70);
    makeMarkers(dim, canvas()->devicePixelRatioF());
    const auto stamp = [&](const QPixmap& marker, const Point& p) {
        const QSizeF half = marker.deviceIndependentSize() / 2;
        painter.drawPixmap(pixelOf(p, area) - QPointF(half.width(), half.height()), marker);
    };
    for (const Point& p : points_) {
        if (!p.front) {
            stamp(otherMarker_, p);
        }
    }
    if (line_.size() > 1) {
        QPainterPath path;
        for (std::size_t i = 0; i < line_.size(); ++i) {
            const QPointF at(pixelX(area, x_, line_[i].x()), pixelY(area, y_, line_[i].y()));
            i == 0 ? path.moveTo(at) : path.lineTo(at);
        }
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(kFrontColour, 1.5));
        painter.drawPath(path);
    }
    for (const Point& p : points_) {
        if (p.front) {
            stamp(frontMarker_, p);
        }
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(255, 127, 14), 2.5));
    for (const Point& p : points_) {
        if (selected_.count(data_->trials()[std::size_t(p.row)].id) != 0) {
            painter.drawEllipse(pixelOf(p, area), kFrontRadius + 3, kFrontRadius + 3);
        }
    }
    painter.restore();
    // The legend above the plot, the count at its right.
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF metrics(painter.font());
    const double y = 4 + metrics.height() / 2;
    const double baseline = y + metrics.ascent() / 2 - 1;
    double x = area.left() + kFrontRadius;
    painter.setPen(QPen(kFrontColour.darker(140), 1));
    painter.setBrush(kFrontColour);
    painter.drawEllipse(QPointF(x, y), kFrontRadius, kFrontRadius);
    x += kFrontRadius + 4;
    painter.setPen(palette().color(QPalette::Text));
    const QString frontText = tr("On the Pareto front");
    painter.drawText(QPointF(x, baseline), frontText);
    x += metrics.horizontalAdvance(frontText) + 16 + kOtherRadius;
    painter.setPen(Qt::NoPen);
    painter.setBrush(dim);
    painter.drawEllipse(QPointF(x, y), kOtherRadius, kOtherRadius);
    x += kOtherRadius + 4;
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QPointF(x, baseline), tr("Dominated"));
    painter.drawText(QRectF(area.left(), 0, area.width(), 2 * y), Qt::AlignRight | Qt::AlignVCenter,
                     note());
    painter.restore();
}

QString ParetoFrontView::trialAt(QPointF pos) const {
    const QRectF area = plotArea();
    double nearest = kPickRadius * kPickRadius;
    int found = -1;
    for (const Point& p : points_) {
        const QPointF d = pixelOf(p, area) - pos;
        const double d2 = d.x() * d.x() + d.y() * d.y();
        if (d2 <= nearest) {
            nearest = d2;
            found = p.row;
        }
    }
    return found < 0 ? QString() : data_->trials()[std::size_t(found)].id;
}

QString ParetoFrontView::toolTipOf(const QString& trialId) const {
    const int row = data_->rowOf(trialId);
    if (row < 0) {
        return {};
    }
    const TrialRow& t = data_->trials()[std::size_t(row)];
    QStringList lines{data_->onParetoFront(row) ? tr("%1, on the Pareto front").arg(t.id)
                                                : tr("%1, dominated").arg(t.id)};
    for (std::size_t i = 0; i < data_->objectives().size(); ++i) {
        lines << tr("%1, %2: %3")
                     .arg(data_->objectives()[i].metric, scoreScopeText(data_->scope()),
                          shortNumber(data_->objectiveScore(row, i)));
    }
    for (const QString& key : data_->configKeys()) {
        lines << QStringLiteral("%1 = %2").arg(key, configValueText(t, key));
    }
    return lines.join('\n');
}

QStringList ParetoFrontView::frontTrials() const {
    QStringList ids;
    for (const Point& p : points_) {
        if (p.front) {
            ids << data_->trials()[std::size_t(p.row)].id;
        }
    }
    ids.sort();
    return ids;
}

QPointF ParetoFrontView::pointOf(const QString& trialId) const {
    const QRectF area = plotArea();
    for (const Point& p : points_) {
        if (data_->trials()[std::size_t(p.row)].id == trialId) {
            return pixelOf(p, area);
        }
    }
    return {std::nan(""), std::nan("")};
}

}  // namespace tunedeck::app
