#include "plots/edf_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>

#include "plots/study_series.h"

namespace tunedeck::app {

EdfView::EdfView(const ExperimentData* data, QWidget* parent) : StudyPlot(data, parent) {
    controls()->addWidget(new QLabel(tr("Share of trials with a value at or below each value")));
    controls()->addStretch(1);
}

void EdfView::recompute() {
    std::vector<double> values;
    for (const TrialValue& v : trialValues(*data_)) {
        values.push_back(v.value);
    }
    count_ = int(values.size());
    steps_ = empiricalDistribution(values);
    if (steps_.empty()) {
        setNote(data_->metric().isEmpty()
                    ? tr("No experiment shown.")
                    : tr("No trial has reported “%1” yet.").arg(data_->metric()));
        return;
    }
    x_ = PlotAxis::linear(steps_.front().x(), steps_.back().x(), valueTitle());
    y_ = PlotAxis::linear(0, 1, tr("share of trials"));
    y_.lo = 0;
    y_.hi = 1.02;
    setNote(tr("%n trial(s)", nullptr, count_));
}

void EdfView::paintPlot(QPainter& painter) {
    if (steps_.empty()) {
        paintEmpty(painter);
        return;
    }
    const QRectF area = plotAreaIn(QRectF(canvas()->rect()));
    drawAxes(painter, palette(), area, x_, y_);
    painter.save();
    painter.setClipRect(area);
    painter.setRenderHint(QPainter::Antialiasing, true);
    QPainterPath path;
    path.moveTo(area.left(), pixelY(area, y_, 0));
    for (const QPointF& step : steps_) {
        const double px = pixelX(area, x_, step.x());
        path.lineTo(px, path.currentPosition().y());
        path.lineTo(px, pixelY(area, y_, step.y()));
    }
    path.lineTo(area.right(), path.currentPosition().y());
    painter.setPen(QPen(QColor(31, 119, 180), 2));
    painter.drawPath(path);
    painter.restore();
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(area.adjusted(8, 4, -8, -4), Qt::AlignLeft | Qt::AlignTop, note());
}

}  // namespace tunedeck::app
