// The part of MetricChart the user drives by hand: zoom around the pointer (wheel, +/-), pan
// (middle drag, arrows), the rubber band, a click on a curve, the readout following the pointer,
// and the resize that calls for a new image.
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <cmath>

#include "charts/curve_legend.h"
#include "charts/metric_chart.h"

namespace tunedeck::app {

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
        readout_->hide();
    } else {
        updateHover(event->position());
    }
}

void MetricChart::leaveEvent(QEvent* event) {
    hover_.reset();
    readout_->hide();
    QChartView::leaveEvent(event);
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
        } else if (const std::optional<CurveHit> hit = hitAt(mapToScene(event->pos()))) {
            emit trialClicked(data_->trials()[std::size_t(hit->row)].id);
        }
    }
}

}  // namespace tunedeck::app
