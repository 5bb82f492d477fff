// The timeline (Gantt) of the trials: one lane per node, and per card where the node_usage
// samples said which card a trial used, with a bar per run segment of a trial (TrialTimeline),
// coloured by how it ended: completed, stopped early by a scheduler, paused, failed and
// restarted, requeued, failed for good, or still running. Trials that overlap on a lane stack.
// Hovering a bar names it; a click selects its trial's row. Bars are placed when the data
// changes (at most four times a second) and painted as batched rectangles per colour.
// Thread-safety: GUI thread only.
#pragma once

#include <QImage>
#include <QRect>
#include <QRectF>
#include <vector>

#include "plots/plot_axis.h"
#include "plots/study_plot.h"
#include "plots/trial_timeline.h"

class QFontMetricsF;

class QLabel;

namespace tunedeck::app {

class TimelineView : public StudyPlot {
    Q_OBJECT
  public:
    TimelineView(const ExperimentData* data, const TrialTimeline* timeline,
                 QWidget* parent = nullptr);

    struct Bar {
        int segment = 0;  // index into the timeline's segments
        int lane = 0;
        int stack = 0;     // its row within the lane
        double start = 0;  // seconds since the experiment's start
        double end = 0;
    };
    struct Lane {
        QString name;  // "local", "gpu1 · GPU 0"
        int stacks = 1;
    };
    const std::vector<Bar>& bars() const { return bars_; }
    const std::vector<Lane>& lanes() const { return lanes_; }
    const TrialTimeline& timeline() const { return *timeline_; }
    // The bar's rectangle on the canvas as last laid out.
    QRectF barRect(const Bar& bar) const;
    // The words and colour of how a segment ended, as the legend shows them.
    static QString endText(TimelineSegment::End end);
    static QColor endColour(TimelineSegment::End end);
    // The text inside a bar: the trial, and a gang's size ("t00003 ×4").
    static QString barLabel(const TimelineSegment& segment);

  protected:
    void recompute() override;
    void paintPlot(QPainter& painter) override;
    QString trialAt(QPointF pos) const override;
    QString toolTipOf(const QString& trialId) const override;

  private:
    // Where the bars go and how tall a row is, for the canvas's current size.
    struct Layout {
        QRectF plot;
        double rowHeight = 0;
    };
    QRectF area() const;
    Layout layout() const;
    double stackTop(int lane, int stack, const Layout& layout) const;  // a row's top edge
    QRectF barRectIn(const Bar& bar, const Layout& layout) const;
    // Everything but the selection, drawn into frame_ when the runs, the size, the font or the
    // palette changed; a frame in between (hover, selection, a window over it) is one copy.
    void renderFrame();
    void paintAxes(QPainter& painter, const Layout& layout) const;
    void paintBars(QPainter& painter, const Layout& layout);
    void paintLegend(QPainter& painter, const Layout& layout) const;
    // Where each kind of end's swatch goes, in kEnds' order, wrapped to the plot's width (a
    // longer language's words need two rows at 1280 px); and how many rows that takes.
    std::vector<QPointF> legendPlaces(int* rows = nullptr) const;

    const TrialTimeline* timeline_;
    std::vector<Bar> bars_;
    std::vector<Lane> lanes_;
    std::vector<int> firstStack_;  // per lane, the stack index of its first row overall
    int totalStacks_ = 0;
    PlotAxis x_;
    mutable QString hoveredSegmentText_;
    QImage frame_;              // opaque, at the screen's pixel ratio
    QString frameKey_;          // the size, ratio, font and palette frame_ was drawn for
    std::vector<QRect> rects_;  // each bar's rectangle in frame_, in the canvas's coordinates
    bool frameStale_ = true;
    QLabel* noteLabel_ = nullptr;  // how many runs are drawn
};

}  // namespace tunedeck::app
