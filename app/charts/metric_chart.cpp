#include "charts/metric_chart.h"

#include "charts/decimate.h"

#include <QKeyEvent>
#include <QLogValueAxis>
#include <QValueAxis>
#include <cmath>

namespace tunedeck::app {

namespace {

constexpr int kFrameMs = 33;  // at most 30 redraws a second

}  // namespace

MetricChart::MetricChart(const ExperimentData* data, QWidget* parent)
    : QChartView(parent), data_(data) {
    chart()->legend()->hide();
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing, false);  // thousands of lines: speed over smoothness
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    frame_.setInterval(kFrameMs);
    connect(&frame_, &QTimer::timeout, this, &MetricChart::onFrame);
    frame_.start();
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
    zoomed_ = false;
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
    for (auto& [id, series] : series_) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    zoomed_ = false;
    dirty_ = true;
}

QLineSeries* MetricChart::seriesFor(const QString& trialId) {
    auto it = series_.find(trialId);
    if (it != series_.end()) {
        return it->second;
    }
    auto* series = new QLineSeries;
    series->setName(trialId);
    chart()->addSeries(series);
    for (QAbstractAxis* axis : chart()->axes()) {
        series->attachAxis(axis);
    }
    series_.emplace(trialId, series);
    return series;
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
    // The data's extent decides the axes unless the user zoomed.
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    bool any = false;
    for (const TrialRow& t : trials) {
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
    QList<QAbstractAxis*> xAxes = chart()->axes(Qt::Horizontal);
    QList<QAbstractAxis*> yAxes = chart()->axes(Qt::Vertical);
    if (!zoomed_ && any && !xAxes.isEmpty() && !yAxes.isEmpty()) {
        const double pad = (yMax - yMin) * 0.05 + (yMax == yMin ? 1e-9 + std::abs(yMax) * 0.05 : 0);
        xAxes.first()->setRange(xMin, xMax > xMin ? xMax : xMin + 1);
        yAxes.first()->setRange(logScale_ ? yMin / 1.1 : yMin - pad,
                                logScale_ ? yMax * 1.1 : yMax + pad);
        // Round tick values (0.25, 0.3, ...) rather than the data's own extremes.
        if (auto* x = qobject_cast<QValueAxis*>(xAxes.first())) {
            x->applyNiceNumbers();
        }
        if (auto* y = qobject_cast<QValueAxis*>(yAxes.first())) {
            y->applyNiceNumbers();
        }
    }
    auto* shownX = qobject_cast<QValueAxis*>(xAxes.value(0));
    const double viewMin = shownX ? shownX->min() : xMin;
    const double viewMax = shownX ? shownX->max() : xMax;
    const int columns = std::max(int(chart()->plotArea().width()), 50);
    int points = 0;
    for (int row = 0; row < int(trials.size()); ++row) {
        const TrialRow& t = trials[std::size_t(row)];
        QLineSeries* series = seriesFor(t.id);
        const bool shown = !t.values.empty() && (visible_.empty() || visible_.count(t.id));
        series->setVisible(shown);
        if (!shown) {
            continue;
        }
        const std::vector<double>& xs = xAxis_ == XAxis::Iteration ? t.iterations : t.times;
        std::vector<double> ys = smooth(t.values, 1.0 - smoothing_);
        if (logScale_) {
            for (double& y : ys) {
                y = y > 0 ? y : std::numeric_limits<double>::min();
            }
        }
        const QList<QPointF> drawn = decimate(xs, ys, viewMin, viewMax, columns);
        points += int(drawn.size());
        series->replace(drawn);
        QPen pen = series->pen();
        const bool isBest = row == best;
        pen.setWidthF(isBest ? 3.0 : 1.0);
        pen.setColor(isBest ? QColor(0xd8, 0x1b, 0x60)
                            : QColor::fromHsv((row * 47) % 360, 140, 200, 170));
        series->setPen(pen);
    }
    return points;
}

void MetricChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    dirty_ = true;
}

void MetricChart::wheelEvent(QWheelEvent* event) {
    chart()->zoom(event->angleDelta().y() > 0 ? 1.25 : 0.8);
    zoomed_ = true;
    dirty_ = true;
}

void MetricChart::keyPressEvent(QKeyEvent* event) {
    const qreal step = 20;
    switch (event->key()) {
        case Qt::Key_Left:
            chart()->scroll(-step, 0);
            break;
        case Qt::Key_Right:
            chart()->scroll(step, 0);
            break;
        case Qt::Key_Up:
            chart()->scroll(0, step);
            break;
        case Qt::Key_Down:
            chart()->scroll(0, -step);
            break;
        case Qt::Key_Home:
        case Qt::Key_0:
            resetZoom();
            return;
        default:
            QChartView::keyPressEvent(event);
            return;
    }
    zoomed_ = true;
    dirty_ = true;
}

void MetricChart::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton) {
        panning_ = true;
        panFrom_ = event->pos();
        return;
    }
    if (event->button() == Qt::RightButton) {
        resetZoom();
        return;
    }
    QChartView::mousePressEvent(event);
}

void MetricChart::mouseMoveEvent(QMouseEvent* event) {
    if (panning_) {
        const QPoint delta = event->pos() - panFrom_;
        chart()->scroll(-delta.x(), delta.y());
        panFrom_ = event->pos();
        zoomed_ = true;
        dirty_ = true;
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void MetricChart::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_ && event->button() == Qt::MiddleButton) {
        panning_ = false;
        return;
    }
    QChartView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton) {
        zoomed_ = true;  // a rubber band zoomed in
        dirty_ = true;
    }
}

}  // namespace tunedeck::app
