#include "charts/metric_chart.h"

#include <QGraphicsScene>
#include <QKeyEvent>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>
#include <cmath>

#include "charts/decimate.h"

namespace tunedeck::app {

namespace {

constexpr int kFrameMs = 34;  // at most 30 redraws a second (29.4)

}  // namespace

void CurvesItem::setCurves(QRectF area, std::vector<Curve> curves) {
    prepareGeometryChange();
    area_ = area;
    curves_ = std::move(curves);
    update();
}

void CurvesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->setClipRect(area_);
    painter->setRenderHint(QPainter::Antialiasing, false);
    for (const Curve& curve : curves_) {
        painter->setPen(curve.pen);
        painter->drawPolyline(curve.points);
    }
}

MetricChart::MetricChart(const ExperimentData* data, QWidget* parent)
    : QChartView(parent), data_(data) {
    chart()->legend()->hide();
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing, false);
    setFocusPolicy(Qt::StrongFocus);
    setRubberBand(QChartView::NoRubberBand);  // our own: the chart has no series to zoom
    curves_ = new CurvesItem;
    curves_->setZValue(10);
    chart()->scene()->addItem(curves_);
    band_ = new QRubberBand(QRubberBand::Rectangle, this);
    frame_.setInterval(kFrameMs);
    connect(&frame_, &QTimer::timeout, this, &MetricChart::onFrame);
    frame_.start();
    connect(chart(), &QChart::plotAreaChanged, this, [this] { dirty_ = true; });
    rebuildAxes();
}

void MetricChart::markDirty() {
    dirty_ = true;
}

void MetricChart::setVisibleTrials(const std::set<QString>& trialIds) {
    visible_ = trialIds;
    dirty_ = true;
}

void MetricChart::setXAxis(XAxis axis) {
    xAxis_ = axis;
    rebuildAxes();
}

void MetricChart::setLogScale(bool on) {
    logScale_ = on;
    rebuildAxes();
}

void MetricChart::setSmoothing(double amount) {
    smoothing_ = std::clamp(amount, 0.0, 0.99);
    dirty_ = true;
}

void MetricChart::resetZoom() {
    zoomed_ = false;
    dirty_ = true;
}

void MetricChart::rebuildAxes() {
    QChart* c = chart();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        axis->deleteLater();
    }
    auto* x = new QValueAxis;
    x->setTitleText(xAxis_ == XAxis::Iteration ? tr("iteration") : tr("seconds"));
    x->setLabelFormat(QStringLiteral("%g"));
    QAbstractAxis* y = nullptr;
    if (logScale_) {
        auto* log = new QLogValueAxis;
        log->setLabelFormat(QStringLiteral("%g"));
        y = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%g"));
        y = linear;
    }
    y->setTitleText(data_->metric());
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    zoomed_ = false;
    dirty_ = true;
}

void MetricChart::setView(double xMin, double xMax, double yMin, double yMax) {
    viewXMin_ = xMin;
    viewXMax_ = xMax > xMin ? xMax : xMin + 1;
    viewYMin_ = yMin;
    viewYMax_ = yMax > yMin ? yMax : yMin + 1;
    const QList<QAbstractAxis*> xs = chart()->axes(Qt::Horizontal);
    const QList<QAbstractAxis*> ys = chart()->axes(Qt::Vertical);
    if (!xs.isEmpty() && !ys.isEmpty()) {
        xs.first()->setRange(viewXMin_, viewXMax_);
        ys.first()->setRange(viewYMin_, viewYMax_);
    }
}

QPointF MetricChart::toValue(QPointF pixel) const {
    const QRectF area = chart()->plotArea();
    const double fx = (pixel.x() - area.left()) / area.width();
    const double fy = (area.bottom() - pixel.y()) / area.height();
    const double x = viewXMin_ + fx * (viewXMax_ - viewXMin_);
    const double y = logScale_
                         ? std::pow(10.0, std::log10(viewYMin_) +
                                              fy * (std::log10(viewYMax_) - std::log10(viewYMin_)))
                         : viewYMin_ + fy * (viewYMax_ - viewYMin_);
    return {x, y};
}

void MetricChart::onFrame() {
    if (dirty_ && isVisible()) {
        redraw();
    }
}

int MetricChart::redraw() {
    dirty_ = false;
    ++redraws_;
    const auto& trials = data_->trials();
    const int best = data_->bestRow();
    auto shown = [&](const TrialRow& t) {
        return !t.values.empty() && (visible_.empty() || visible_.count(t.id));
    };
    if (!zoomed_) {
        // The data's extent decides the axes unless the user zoomed.
        double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
        bool any = false;
        for (const TrialRow& t : trials) {
            if (!shown(t)) {
                continue;
            }
            const std::vector<double>& xs = xAxis_ == XAxis::Iteration ? t.iterations : t.times;
            for (std::size_t i = 0; i < t.values.size(); ++i) {
                const double y = t.values[i];
                if (logScale_ && y <= 0) {
                    continue;
                }
                if (!any) {
                    xMin = xMax = xs[i];
                    yMin = yMax = y;
                    any = true;
                }
                xMin = std::min(xMin, xs[i]);
                xMax = std::max(xMax, xs[i]);
                yMin = std::min(yMin, y);
                yMax = std::max(yMax, y);
            }
        }
        if (logScale_) {
            setView(xMin, xMax, any ? yMin / 1.1 : 0.1, any ? yMax * 1.1 : 1);
        } else {
            const double pad = yMax > yMin ? (yMax - yMin) * 0.05 : std::abs(yMax) * 0.05 + 1e-9;
            setView(xMin, xMax, yMin - pad, yMax + pad);
            // Round tick values (0.25, 0.3, ...) rather than the data's own extremes.
            if (auto* y = qobject_cast<QValueAxis*>(chart()->axes(Qt::Vertical).value(0))) {
                y->applyNiceNumbers();
                viewYMin_ = y->min();
                viewYMax_ = y->max();
            }
        }
    }
    const QRectF area = chart()->plotArea();
    const int columns = std::max(int(area.width()), 50);
    const double xSpan = viewXMax_ - viewXMin_;
    const double yLow = logScale_ ? std::log10(std::max(viewYMin_, 1e-300)) : viewYMin_;
    const double ySpan = (logScale_ ? std::log10(std::max(viewYMax_, 1e-300)) : viewYMax_) - yLow;
    std::vector<CurvesItem::Curve> curves;
    CurvesItem::Curve bestCurve;
    int points = 0;
    for (int row = 0; row < int(trials.size()); ++row) {
        const TrialRow& t = trials[std::size_t(row)];
        if (!shown(t)) {
            continue;
        }
        const std::vector<double>& xs = xAxis_ == XAxis::Iteration ? t.iterations : t.times;
        const std::vector<double> ys = smooth(t.values, 1.0 - smoothing_);
        const QList<QPointF> drawn = decimate(xs, ys, viewXMin_, viewXMax_, columns);
        points += int(drawn.size());
        CurvesItem::Curve curve;
        curve.points.reserve(drawn.size());
        for (const QPointF& p : drawn) {
            const double y = logScale_ ? std::log10(std::max(p.y(), 1e-300)) : p.y();
            curve.points.append(QPointF(area.left() + (p.x() - viewXMin_) / xSpan * area.width(),
                                        area.bottom() - (y - yLow) / ySpan * area.height()));
        }
        const bool isBest = row == best;
        curve.pen = QPen(
            isBest ? QColor(0xd8, 0x1b, 0x60) : QColor::fromHsv((row * 47) % 360, 140, 200, 170),
            isBest ? 3.0 : 1.0);
        if (isBest) {
            bestCurve = std::move(curve);  // drawn last, on top
        } else {
            curves.push_back(std::move(curve));
        }
    }
    if (!bestCurve.points.isEmpty()) {
        curves.push_back(std::move(bestCurve));
    }
    curves_->setCurves(area, std::move(curves));
    return points;
}

void MetricChart::zoomAround(QPointF pixel, double factor) {
    const QPointF center = toValue(pixel);
    zoomed_ = true;
    if (logScale_) {
        const double c = std::log10(center.y());
        setView(center.x() - (center.x() - viewXMin_) / factor,
                center.x() + (viewXMax_ - center.x()) / factor,
                std::pow(10.0, c - (c - std::log10(viewYMin_)) / factor),
                std::pow(10.0, c + (std::log10(viewYMax_) - c) / factor));
    } else {
        setView(center.x() - (center.x() - viewXMin_) / factor,
                center.x() + (viewXMax_ - center.x()) / factor,
                center.y() - (center.y() - viewYMin_) / factor,
                center.y() + (viewYMax_ - center.y()) / factor);
    }
    dirty_ = true;
}

void MetricChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    dirty_ = true;
}

void MetricChart::wheelEvent(QWheelEvent* event) {
    zoomAround(event->position(), event->angleDelta().y() > 0 ? 1.25 : 0.8);
}

void MetricChart::keyPressEvent(QKeyEvent* event) {
    const QRectF area = chart()->plotArea();
    QPointF shift;
    switch (event->key()) {
        case Qt::Key_Left:
            shift = {-area.width() / 10, 0};
            break;
        case Qt::Key_Right:
            shift = {area.width() / 10, 0};
            break;
        case Qt::Key_Up:
            shift = {0, -area.height() / 10};
            break;
        case Qt::Key_Down:
            shift = {0, area.height() / 10};
            break;
        case Qt::Key_Plus:
            zoomAround(area.center(), 1.25);
            return;
        case Qt::Key_Minus:
            zoomAround(area.center(), 0.8);
            return;
        case Qt::Key_Home:
        case Qt::Key_0:
            resetZoom();
            return;
        default:
            QChartView::keyPressEvent(event);
            return;
    }
    const QPointF from = toValue(area.center());
    const QPointF to = toValue(area.center() + shift);
    zoomed_ = true;
    setView(viewXMin_ + to.x() - from.x(), viewXMax_ + to.x() - from.x(),
            viewYMin_ + to.y() - from.y(), viewYMax_ + to.y() - from.y());
    dirty_ = true;
}

void MetricChart::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton) {
        panning_ = true;
        panFrom_ = event->pos();
    } else if (event->button() == Qt::RightButton) {
        resetZoom();
    } else if (event->button() == Qt::LeftButton) {
        bandFrom_ = event->pos();
        band_->setGeometry(QRect(bandFrom_, QSize()));
        band_->show();
    }
}

void MetricChart::mouseMoveEvent(QMouseEvent* event) {
    if (panning_) {
        const QPointF from = toValue(panFrom_);
        const QPointF to = toValue(event->pos());
        panFrom_ = event->pos();
        zoomed_ = true;
        setView(viewXMin_ - (to.x() - from.x()), viewXMax_ - (to.x() - from.x()),
                viewYMin_ - (to.y() - from.y()), viewYMax_ - (to.y() - from.y()));
        dirty_ = true;
    } else if (band_->isVisible()) {
        band_->setGeometry(QRect(bandFrom_, event->pos()).normalized());
    }
}

void MetricChart::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_ && event->button() == Qt::MiddleButton) {
        panning_ = false;
        return;
    }
    if (event->button() == Qt::LeftButton && band_->isVisible()) {
        band_->hide();
        const QRect picked = QRect(bandFrom_, event->pos()).normalized();
        if (picked.width() > 4 && picked.height() > 4) {
            const QPointF low = toValue(picked.bottomLeft());
            const QPointF high = toValue(picked.topRight());
            zoomed_ = true;
            setView(low.x(), high.x(), low.y(), high.y());
            dirty_ = true;
        }
    }
}

}  // namespace tunedeck::app
