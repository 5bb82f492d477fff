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

void CurvesItem::redrawAll(QRectF area, const std::vector<Curve>& curves) {
    if (area != area_) {
        prepareGeometryChange();
        area_ = area;
    }
    image_ =
        QImage(area.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image_.fill(Qt::transparent);
    add(curves);
}

void CurvesItem::add(const std::vector<Curve>& curves) {
    if (image_.isNull() || curves.empty()) {
        return;
    }
    QPainter painter(&image_);
    painter.translate(-area_.topLeft());
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (const Curve& curve : curves) {
        painter.setPen(curve.pen);
        painter.drawPolyline(curve.points);
    }
    update();
}

void CurvesItem::setOverlay(Curve curve) {
    overlay_ = std::move(curve);
    update();
}

void CurvesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->drawImage(area_.topLeft(), image_);
    painter->setClipRect(area_);
    painter->setPen(overlay_.pen);
    painter->drawPolyline(overlay_.points);
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
    zoomed_ = false;
    drawnPoints_.clear();
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
    drawnPoints_.clear();
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
    drawnPoints_.clear();
    dirty_ = true;
}

void MetricChart::setView(double xMin, double xMax, double yMin, double yMax) {
    drawnPoints_.clear();  // the image no longer matches: the next frame draws all
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
        advance();
    }
}

QPen MetricChart::penFor(int row, int best) const {
    return row == best ? QPen(QColor(0xd8, 0x1b, 0x60), 3.0)
                       : QPen(QColor::fromHsv((row * 47) % 360, 140, 200, 170), 1.0);
}

QPointF MetricChart::toPixel(double x, double y) const {
    const QRectF area = chart()->plotArea();
    const double yLow = logScale_ ? std::log10(std::max(viewYMin_, 1e-300)) : viewYMin_;
    const double yHigh = logScale_ ? std::log10(std::max(viewYMax_, 1e-300)) : viewYMax_;
    const double v = logScale_ ? std::log10(std::max(y, 1e-300)) : y;
    return {area.left() + (x - viewXMin_) / (viewXMax_ - viewXMin_) * area.width(),
            area.bottom() - (v - yLow) / (yHigh - yLow) * area.height()};
}

bool MetricChart::autoView(double* xMin, double* xMax, double* yMin, double* yMax) const {
    bool any = false;
    for (const TrialRow& t : data_->trials()) {
        if (t.values.empty() || (!visible_.empty() && !visible_.count(t.id))) {
            continue;
        }
        const std::vector<double>& xs = xAxis_ == XAxis::Iteration ? t.iterations : t.times;
        for (std::size_t i = 0; i < t.values.size(); ++i) {
            const double y = t.values[i];
            if (logScale_ && y <= 0) {
                continue;
            }
            if (!any) {
                *xMin = *xMax = xs[i];
                *yMin = *yMax = y;
                any = true;
            }
            *xMin = std::min(*xMin, xs[i]);
            *xMax = std::max(*xMax, xs[i]);
            *yMin = std::min(*yMin, y);
            *yMax = std::max(*yMax, y);
        }
    }
    return any;
}

bool MetricChart::fitView(bool onlyWhenOutside) {
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    if (!autoView(&xMin, &xMax, &yMin, &yMax) ||
        (onlyWhenOutside && xMin >= viewXMin_ && xMax <= viewXMax_ && yMin >= viewYMin_ &&
         yMax <= viewYMax_)) {
        return false;
    }
    // Room to grow: a quarter more iterations, a tenth more of the metric's range.
    const double xRoom = (xMax - xMin) * 0.25 + 1;
    if (logScale_) {
        setView(xMin, xMax + xRoom, yMin / 1.5, yMax * 1.5);
    } else {
        const double pad = yMax > yMin ? (yMax - yMin) * 0.1 : std::abs(yMax) * 0.1 + 1e-9;
        setView(xMin, xMax + xRoom, yMin - pad, yMax + pad);
        if (auto* y = qobject_cast<QValueAxis*>(chart()->axes(Qt::Vertical).value(0))) {
            y->applyNiceNumbers();  // round ticks (0.25, 0.3, ...)
            viewYMin_ = y->min();
            viewYMax_ = y->max();
        }
    }
    if (auto* x = qobject_cast<QValueAxis*>(chart()->axes(Qt::Horizontal).value(0))) {
        x->applyNiceNumbers();
        viewXMin_ = x->min();
        viewXMax_ = x->max();
    }
    return true;
}

int MetricChart::advance() {
    dirty_ = false;
    ++redraws_;
    const auto& trials = data_->trials();
    // The automatic view: it changes only when data leaves it, so most frames just add segments.
    bool full = drawnArea_ != chart()->plotArea() || drawnPoints_.size() > trials.size();
    if (!zoomed_ && fitView(!drawnPoints_.empty())) {
        full = true;
    }
    full = full || drawnPoints_.empty();  // a new view, selection or experiment
    for (std::size_t row = 0; !full && row < drawnPoints_.size(); ++row) {
        full = trials[row].values.size() < drawnPoints_[row];  // restored: its curve went back
    }
    if (full || smoothing_ > 0) {
        return redraw();
    }
    // Only what arrived since the last frame, each trial's piece joined to what was drawn. The
    // best trial lives in the overlay; one that lost that place joins the image, thin.
    drawnPoints_.resize(trials.size(), 0);
    const int best = data_->bestRow();
    std::vector<CurvesItem::Curve> pieces;
    int points = 0;
    if (best != drawnBest_) {
        if (drawnBest_ >= 0 && drawnBest_ < int(trials.size())) {
            pieces.push_back(curveOf(drawnBest_, best));
            drawnPoints_[std::size_t(drawnBest_)] = trials[std::size_t(drawnBest_)].values.size();
        }
        drawnBest_ = best;
    }
    for (int row = 0; row < int(trials.size()); ++row) {
        const TrialRow& t = trials[std::size_t(row)];
        std::size_t& drawn = drawnPoints_[std::size_t(row)];
        if (row == best || t.values.size() <= drawn ||
            (!visible_.empty() && !visible_.count(t.id))) {
            drawn = t.values.size();
            continue;
        }
        const std::vector<double>& xs = xAxis_ == XAxis::Iteration ? t.iterations : t.times;
        CurvesItem::Curve piece;
        piece.pen = penFor(row, best);
        for (std::size_t i = drawn > 0 ? drawn - 1 : 0; i < t.values.size(); ++i) {
            piece.points.append(toPixel(xs[i], t.values[i]));
        }
        points += int(piece.points.size());
        drawn = t.values.size();
        pieces.push_back(std::move(piece));
    }
    curves_->add(pieces);
    curves_->setOverlay(best >= 0 ? curveOf(best, best) : CurvesItem::Curve{});
    return points;
}

CurvesItem::Curve MetricChart::curveOf(int row, int best) const {
    CurvesItem::Curve curve;
    const TrialRow& t = data_->trials()[std::size_t(row)];
    if (t.values.empty() || (!visible_.empty() && !visible_.count(t.id))) {
        return curve;
    }
    const std::vector<double>& xs = xAxis_ == XAxis::Iteration ? t.iterations : t.times;
    const std::vector<double> ys = smooth(t.values, 1.0 - smoothing_);
    const QList<QPointF> drawn =
        decimate(xs, ys, viewXMin_, viewXMax_, std::max(int(chart()->plotArea().width()), 50));
    curve.pen = penFor(row, best);
    curve.points.reserve(drawn.size());
    for (const QPointF& p : drawn) {
        curve.points.append(toPixel(p.x(), p.y()));
    }
    return curve;
}

int MetricChart::redraw() {
    if (!zoomed_) {
        fitView(false);
    }
    const auto& trials = data_->trials();
    const int best = data_->bestRow();
    std::vector<CurvesItem::Curve> curves;
    int points = 0;
    drawnPoints_.assign(trials.size(), 0);
    for (int row = 0; row < int(trials.size()); ++row) {
        drawnPoints_[std::size_t(row)] = trials[std::size_t(row)].values.size();
        CurvesItem::Curve curve = curveOf(row, best);
        points += int(curve.points.size());
        if (row != best && !curve.points.isEmpty()) {
            curves.push_back(std::move(curve));
        } else if (row == best) {
            curves_->setOverlay(std::move(curve));
        }
    }
    if (best < 0) {
        curves_->setOverlay({});
    }
    const QRectF area = chart()->plotArea();
    curves_->redrawAll(area, curves);
    drawnBest_ = best;
    drawnArea_ = area;
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
