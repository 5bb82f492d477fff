// The brushing of the parallel coordinates (see parallel_coordinates_view.h): a drag along an
// axis sets its brush, a click on a brushed axis removes it, a double click removes all; the
// trials inside every brush are drawn over the faded rest and handed to the window's table.
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "analysis/parallel_coordinates_view.h"

namespace tunedeck::app {

namespace {

constexpr double kGrabPixels = 8;   // how near an axis a drag must start to brush it
constexpr double kBrushWidth = 14;  // the brush's band across its axis
constexpr double kClickPixels = 3;  // a drag shorter than this is a click

}  // namespace

void ParallelCoordinatesView::mouseReleaseEvent(QMouseEvent* event) {
    if (dragAxis_ < 0 || dragAxis_ >= int(axes_.size())) {
        dragAxis_ = -1;
        return;
    }
    const ParameterScale& axis = axes_[std::size_t(dragAxis_)];
    dragTo_ = event->position().y();
    dragAxis_ = -1;
    const auto brushed = std::find_if(brushes_.begin(), brushes_.end(),
                                      [&](const AxisBrush& b) { return b.key == axis.key; });
    if (std::abs(dragTo_ - dragFrom_) < kClickPixels) {
        if (brushed != brushes_.end()) {
            brushes_.erase(brushed);  // a click on a brushed axis clears it, as in plotly
            updateBrushed();
        } else if (const QString trial = trialAt(event->position()); !trial.isEmpty()) {
            emit trialClicked(trial);
        }
        update();
        return;
    }
    const QRectF area = plotArea();
    const auto fractionAt = [&](double y) { return (area.bottom() - y) / area.height(); };
    AxisBrush brush = AxisBrush::over(axis, fractionAt(dragFrom_), fractionAt(dragTo_));
    if (brushed != brushes_.end()) {
        *brushed = std::move(brush);
    } else {
        brushes_.push_back(std::move(brush));
    }
    updateBrushed();
}

void ParallelCoordinatesView::mouseDoubleClickEvent(QMouseEvent*) {
    clearBrushes();
}

void ParallelCoordinatesView::clearBrushes() {
    dragAxis_ = -1;
    if (!brushes_.empty()) {
        brushes_.clear();
        updateBrushed();
    }
}

int ParallelCoordinatesView::axisNear(QPointF pos) const {
    const QRectF area = plotArea();
    if (pos.y() < area.top() - kGrabPixels || pos.y() > area.bottom() + kGrabPixels) {
        return -1;
    }
    for (int a = 0; a < int(axes_.size()); ++a) {
        if (std::abs(pos.x() - axisX(a)) <= kGrabPixels) {
            return a;
        }
    }
    return -1;
}

std::optional<QStringList> ParallelCoordinatesView::brushedTrials() const {
    if (!brushed_) {
        return std::nullopt;
    }
    return QStringList(brushed_->begin(), brushed_->end());
}

void ParallelCoordinatesView::updateBrushed() {
    if (brushes_.empty()) {
        brushed_.reset();
    } else {
        std::set<QString> inside;
        const std::vector<TrialRow>& trials = data_->trials();
        for (std::size_t r = 0; r < trials.size(); ++r) {
            const TrialRow& row = trials[r];
            // An objective's axis is the trial's score by the scope, as its line is drawn.
            const bool all = std::all_of(brushes_.begin(), brushes_.end(), [&](const AxisBrush& b) {
                int objective = -1;
                for (int a = int(axes_.size()) - objectiveAxes_; a < int(axes_.size()); ++a) {
                    objective = a >= 0 && axes_[std::size_t(a)].key == b.key
                                    ? a - (int(axes_.size()) - objectiveAxes_)
                                    : objective;
                }
                if (objective < 0) {
                    return b.contains(row.flatConfig.value(b.key));
                }
                const double score = objectiveValue(int(r), objective);
                return b.contains(std::isfinite(score) ? QJsonValue(score) : QJsonValue());
            });
            if (all) {
                inside.insert(row.id);
            }
        }
        brushed_ = std::move(inside);
    }
    update();
    emit brushChanged();
}

void ParallelCoordinatesView::drawBrushes(QPainter& painter) const {
    const QRectF area = plotArea();
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(70);
    const QPen edge(palette().color(QPalette::Highlight), 1.5);
    const auto band = [&](double x, double y0, double y1) {
        painter.setPen(edge);
        painter.setBrush(fill);
        painter.drawRect(QRectF(x - kBrushWidth / 2, std::min(y0, y1), kBrushWidth,
                                std::max(2.0, std::abs(y1 - y0))));
    };
    for (int a = 0; a < int(axes_.size()); ++a) {
        for (const AxisBrush& brush : brushes_) {
            if (brush.key == axes_[std::size_t(a)].key) {
                const auto [lo, hi] = brush.fractionsOn(axes_[std::size_t(a)]);
                band(axisX(a), area.bottom() - lo * area.height(),
                     area.bottom() - hi * area.height());
            }
        }
    }
    if (dragAxis_ >= 0 && std::abs(dragTo_ - dragFrom_) >= kClickPixels) {
        band(axisX(dragAxis_), dragFrom_, dragTo_);
    }
    painter.setBrush(Qt::NoBrush);
}

}  // namespace tunedeck::app
