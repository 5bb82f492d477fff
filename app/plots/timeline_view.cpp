#include "plots/timeline_view.h"

#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <algorithm>
#include <iterator>
#include <map>

namespace tunedeck::app {

namespace {

using End = TimelineSegment::End;

constexpr double kLaneLabels = 130;  // left of the bars, the lanes' names
constexpr double kLegendHeight = 24;
constexpr double kMaxRowHeight = 18;
constexpr double kBottom = 42;         // the time axis's labels and title
constexpr double kLabelBarWidth = 60;  // bars this wide carry their trial's name
constexpr int kMaxLabels = 400;        // names drawn at most, so 10,000 bars cost no text
constexpr End kEnds[] = {End::Running, End::Completed, End::StoppedEarly, End::StoppedByUser,
                         End::Paused,  End::Restarted, End::Requeued,     End::Failed};

}  // namespace

TimelineView::TimelineView(const ExperimentData* data, const TrialTimeline* timeline,
                           QWidget* parent)
    : StudyPlot(data, parent), timeline_(timeline) {
    controls()->addWidget(new QLabel(tr("Each run of each trial on its node and card")));
    controls()->addStretch(1);
    // The count in the row of controls, not after the legend, where a longer language's legend
    // ran into it.
    noteLabel_ = new QLabel;
    noteLabel_->setObjectName(QStringLiteral("timelineNote"));
    controls()->addWidget(noteLabel_);
}

QString TimelineView::endText(End end) {
    switch (end) {
        case End::Running:
            return tr("running");
        case End::Completed:
            return tr("completed");
        case End::StoppedEarly:
            return tr("stopped early");
        case End::StoppedByUser:
            return tr("stopped by the user");
        case End::Paused:
            return tr("paused");
        case End::Restarted:
            return tr("failed, restarted");
        case End::Requeued:
            return tr("requeued");
        case End::Failed:
            return tr("failed");
    }
    return {};
}

QColor TimelineView::endColour(End end) {
    // Okabe-Ito's colour-blind safe set.
    switch (end) {
        case End::Running:
            return QColor(86, 180, 233);
        case End::Completed:
            return QColor(0, 158, 115);
        case End::StoppedEarly:
            return QColor(230, 159, 0);
        case End::StoppedByUser:  // grey as its Status cell, darker than a pause
            return QColor(80, 80, 80);
        case End::Paused:
            return QColor(153, 153, 153);
        case End::Restarted:
            return QColor(204, 121, 167);
        case End::Requeued:
            return QColor(0, 114, 178);
        case End::Failed:
            return QColor(213, 94, 0);
    }
    return {};
}

void TimelineView::recompute() {
    const std::vector<TimelineSegment>& segments = timeline_->segments();
    const double origin = data_->startTime() > 0 ? data_->startTime()
                          : segments.empty()     ? 0
                                                 : segments.front().start;
    // Lanes: node, then card, in name order. One lookup per segment: it keeps its lane's entry,
    // numbered once all lanes are known.
    std::map<std::pair<QString, int>, int> laneOf;
    std::vector<const int*> laneOfSegment;
    laneOfSegment.reserve(segments.size());
    for (const TimelineSegment& s : segments) {
        laneOfSegment.push_back(
            &laneOf.try_emplace(std::make_pair(s.node, s.gpu), 0).first->second);
    }
    lanes_.clear();
    for (auto& [key, index] : laneOf) {
        index = int(lanes_.size());
        const QString node = key.first.isEmpty() ? tr("(no node)") : key.first;
        lanes_.push_back({key.second < 0 ? node : tr("%1 · GPU %2").arg(node).arg(key.second), 1});
    }
    bars_.clear();
    bars_.reserve(segments.size());
    for (int i = 0; i < int(segments.size()); ++i) {
        const TimelineSegment& s = segments[std::size_t(i)];
        const double end = s.how == End::Running ? std::max(s.end, timeline_->lastTime()) : s.end;
        bars_.push_back({i, *laneOfSegment[std::size_t(i)], 0, s.start - origin, end - origin});
    }
    // Stack the bars that overlap on a lane: each on the first row free at its start.
    std::vector<int> order(bars_.size());
    for (int i = 0; i < int(order.size()); ++i) {
        order[std::size_t(i)] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return bars_[std::size_t(a)].start < bars_[std::size_t(b)].start;
    });
    std::vector<std::vector<double>> rowEnds(lanes_.size());
    double tMax = 0;
    for (int i : order) {
        Bar& bar = bars_[std::size_t(i)];
        std::vector<double>& ends = rowEnds[std::size_t(bar.lane)];
        auto free =
            std::find_if(ends.begin(), ends.end(), [&](double e) { return e <= bar.start; });
        if (free == ends.end()) {
            ends.push_back(bar.end);
            bar.stack = int(ends.size()) - 1;
        } else {
            *free = bar.end;
            bar.stack = int(free - ends.begin());
        }
        tMax = std::max(tMax, bar.end);
    }
    firstStack_.assign(lanes_.size(), 0);
    totalStacks_ = 0;
    for (std::size_t l = 0; l < lanes_.size(); ++l) {
        lanes_[l].stacks = std::max<int>(1, int(rowEnds[l].size()));
        firstStack_[l] = totalStacks_;
        totalStacks_ += lanes_[l].stacks;
    }
    frameStale_ = true;
    x_ = PlotAxis::linear(0, std::max(tMax, 1.0), tr("seconds since the start"));
    x_.lo = 0;
    if (bars_.empty()) {
        setNote(data_->trials().empty() ? tr("No experiment shown.") : tr("No trial has run yet."));
    } else {
        setNote(tr("%n run(s) of trials", nullptr, int(bars_.size())));
    }
    noteLabel_->setText(bars_.empty() ? QString() : note());
}

QRectF TimelineView::area() const {
    const QRectF all(canvas()->rect());
    int rows = 1;
    legendPlaces(&rows);
    return all.adjusted(kLaneLabels, kLegendHeight * rows, -16, -kBottom);
}

std::vector<QPointF> TimelineView::legendPlaces(int* rows) const {
    const QFontMetricsF metrics(canvas()->font());
    const double left = kLaneLabels;
    const double right = std::max(left + 1, double(canvas()->width()) - 16);
    std::vector<QPointF> places;
    double x = left;
    double y = 4;
    for (End end : kEnds) {
        const double width = 18 + metrics.horizontalAdvance(endText(end));
        if (x > left && x + width > right) {
            x = left;
            y += kLegendHeight;
        }
        places.emplace_back(x, y);
        x += width + 12;
    }
    if (rows != nullptr) {
        *rows = 1 + int((y - 4) / kLegendHeight + 0.5);
    }
    return places;
}

TimelineView::Layout TimelineView::layout() const {
    const QRectF plot = area();
    return {plot, std::min(kMaxRowHeight,
                           plot.height() / std::max(1.0, totalStacks_ + lanes_.size() / 3.0))};
}

double TimelineView::stackTop(int lane, int stack, const Layout& at) const {
    // A gap of a third of a row between lanes.
    return at.plot.top() + (firstStack_[std::size_t(lane)] + stack + lane / 3.0) * at.rowHeight;
}

QRectF TimelineView::barRect(const Bar& bar) const {
    return barRectIn(bar, layout());
}

QRectF TimelineView::barRectIn(const Bar& bar, const Layout& at) const {
    const double left = pixelX(at.plot, x_, bar.start);
    // A pixel's gap before the next run on the row, so back-to-back runs stay apart; short runs
    // still show.
    const double right = std::max(pixelX(at.plot, x_, bar.end) - 1, left + 2);
    const double top = stackTop(bar.lane, bar.stack, at);
    return QRectF(left, top + at.rowHeight * 0.1, right - left, std::max(1.0, at.rowHeight * 0.8));
}

void TimelineView::paintPlot(QPainter& painter) {
    if (bars_.empty()) {
        paintEmpty(painter);
        return;
    }
    const QString key = QStringLiteral("%1x%2@%3 %4 %5")
                            .arg(canvas()->width())
                            .arg(canvas()->height())
                            .arg(canvas()->devicePixelRatioF())
                            .arg(canvas()->font().key())
                            .arg(canvas()->palette().cacheKey());
    if (frameStale_ || key != frameKey_) {
        frameKey_ = key;
        renderFrame();
    }
    painter.drawImage(QPointF(0, 0), frame_);
    if (selected_.empty()) {
        return;
    }
    const std::vector<TimelineSegment>& segments = timeline_->segments();
    painter.save();
    painter.setClipRect(area());
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette().color(QPalette::Text), 2));
    for (std::size_t i = 0; i < bars_.size(); ++i) {
        if (selected_.count(segments[std::size_t(bars_[i].segment)].trial) != 0) {
            painter.drawRect(QRectF(rects_[i]).adjusted(-1, -1, 1, 1));
        }
    }
    painter.restore();
}

void TimelineView::renderFrame() {
    frameStale_ = false;
    const qreal ratio = canvas()->devicePixelRatioF();
    const QSize pixels = (QSizeF(canvas()->size()) * ratio).toSize();
    if (frame_.size() != pixels) {
        // Opaque: copied to the screen without blending.
        frame_ = QImage(pixels, QImage::Format_RGB32);
    }
    frame_.setDevicePixelRatio(ratio);
    frame_.fill(canvas()->palette().color(QPalette::Base));
    QPainter painter(&frame_);
    painter.setFont(canvas()->font());
    const Layout at = layout();
    paintAxes(painter, at);
    paintBars(painter, at);
    paintLegend(painter, at);
}

void TimelineView::paintAxes(QPainter& painter, const Layout& at) const {
    const QFontMetricsF metrics(painter.font());
    const QColor text = canvas()->palette().color(QPalette::Text);
    const QRectF& plot = at.plot;
    QList<QRect> grid;  // one line per tick and between lanes
    // The time axis: grid, labels and title below; lanes' names left.
    painter.setPen(text);
    for (const auto& [value, label] : x_.ticks(std::max(2, int(plot.width() / 90)))) {
        const double px = pixelX(plot, x_, value);
        grid.append(QRect(int(px), int(plot.top()), 1, int(plot.height())));
        painter.drawText(QRectF(px - 40, plot.bottom() + 3, 80, metrics.height()), Qt::AlignCenter,
                         label);
    }
    painter.drawText(
        QRectF(plot.left(), plot.bottom() + 3 + metrics.height(), plot.width(), metrics.height()),
        Qt::AlignCenter, x_.title);
    painter.drawRect(plot);
    for (int l = 0; l < int(lanes_.size()); ++l) {
        const double top = stackTop(l, 0, at);
        const double height = lanes_[std::size_t(l)].stacks * at.rowHeight;
        painter.drawText(
            QRectF(4, top, kLaneLabels - 10, std::max(height, metrics.height())),
            Qt::AlignRight | Qt::AlignVCenter,
            metrics.elidedText(lanes_[std::size_t(l)].name, Qt::ElideMiddle, kLaneLabels - 10));
        if (l > 0) {
            grid.append(QRect(int(plot.left()), int(top - at.rowHeight / 6), int(plot.width()), 1));
        }
    }
    drawGrid(painter, canvas()->palette(), grid);
}

void TimelineView::paintBars(QPainter& painter, const Layout& at) {
    const QFontMetricsF metrics(painter.font());
    rects_.clear();
    rects_.reserve(bars_.size());
    // Whole pixels: the raster engine fills integer rectangles on its fast path.
    std::vector<QList<QRect>> byEnd(std::size(kEnds));
    const std::vector<TimelineSegment>& segments = timeline_->segments();
    for (const Bar& bar : bars_) {
        const QRect r = barRectIn(bar, at).toRect();
        rects_.push_back(r);
        byEnd[std::size_t(segments[std::size_t(bar.segment)].how)].append(r);
    }
    painter.save();
    painter.setClipRect(at.plot);
    painter.setPen(Qt::NoPen);
    for (std::size_t end = 0; end < byEnd.size(); ++end) {
        painter.setBrush(endColour(End(end)));
        painter.drawRects(byEnd[end].constData(), int(byEnd[end].size()));
    }
    // The trial's name inside the bars wide enough for it (a few hundred at most).
    painter.setPen(Qt::black);
    int labels = 0;
    for (std::size_t i = 0; i < bars_.size() && labels < kMaxLabels; ++i) {
        const QRect& r = rects_[i];
        if (r.width() < kLabelBarWidth || r.height() < metrics.height() - 2) {
            continue;
        }
        ++labels;
        painter.drawText(r.adjusted(4, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                         barLabel(segments[std::size_t(bars_[i].segment)]));
    }
    painter.restore();
}

void TimelineView::paintLegend(QPainter& painter, const Layout&) const {
    // Above the plot: one swatch per kind of end.
    painter.setFont(canvas()->font());
    const QFontMetricsF metrics(painter.font());
    painter.setPen(canvas()->palette().color(QPalette::Text));
    const std::vector<QPointF> places = legendPlaces();
    for (std::size_t i = 0; i < std::size(kEnds); ++i) {
        const End end = kEnds[i];
        const QPointF place = places[i];
        painter.fillRect(QRectF(place.x(), place.y() + 3, 14, metrics.height() - 6),
                         endColour(end));
        painter.drawText(QPointF(place.x() + 18, place.y() + metrics.ascent()), endText(end));
    }
}

QString TimelineView::barLabel(const TimelineSegment& segment) {
    // A gang's bar says its size ("t00003 ×4"), so a resource change reads along the row.
    return segment.workers > 1
               ? QStringLiteral("%1 \u00d7%2").arg(segment.trial).arg(segment.workers)
               : segment.trial;
}

QString TimelineView::trialAt(QPointF pos) const {
    hoveredSegmentText_.clear();
    // The last drawn on top wins.
    // The rectangles as last painted, or as they will be when not painted since a change.
    const bool painted = !frameStale_ && rects_.size() == bars_.size();
    for (auto it = bars_.rbegin(); it != bars_.rend(); ++it) {
        const QRectF r =
            painted ? QRectF(rects_[std::size_t(bars_.rend() - it - 1)]) : barRect(*it);
        if (r.adjusted(-1, -1, 1, 1).contains(pos)) {
            const TimelineSegment& s = timeline_->segments()[std::size_t(it->segment)];
            hoveredSegmentText_ =
                tr("%1 s to %2 s: %3")
                    .arg(shortNumber(it->start), shortNumber(it->end), endText(s.how));
            if (s.workers > 1) {
                hoveredSegmentText_ += QStringLiteral(" \u00d7%1").arg(s.workers);
            }
            if (!s.reason.isEmpty()) {
                hoveredSegmentText_ += QStringLiteral(" (%1)").arg(s.reason);
            }
            return s.trial;
        }
    }
    return {};
}

QString TimelineView::toolTipOf(const QString& trialId) const {
    const QString trial = StudyPlot::toolTipOf(trialId);
    return hoveredSegmentText_.isEmpty() ? trial : hoveredSegmentText_ + '\n' + trial;
}

}  // namespace tunedeck::app
