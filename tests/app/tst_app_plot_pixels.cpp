// What the study plots put on the screen, read back as pixels: the timeline keeps its drawing
// between frames (so a hover or a selection at 10,000 trials costs one copy), and this checks
// that what is kept is never older than what it shows: new runs, a changed theme and the
// selection each reach the screen at once.
#include <QtTest>

#include "models/experiment_data.h"
#include "plots/study_plots.h"
#include "plots/timeline_view.h"
#include "scripted_events.h"

using namespace tunedeck::app;

namespace {

using End = TimelineSegment::End;

// The canvas as the screen shows it.
QImage onScreen(const TimelineView* timeline) {
    return timeline->canvas()->grab().toImage();
}

// The pixel at the middle of `trial`'s last bar.
QColor barMiddle(const TimelineView* timeline, const QString& trial) {
    QPoint middle;
    for (const TimelineView::Bar& bar : timeline->bars()) {
        if (timeline->timeline().segments()[std::size_t(bar.segment)].trial == trial) {
            middle = timeline->barRect(bar).center().toPoint();
        }
    }
    return onScreen(timeline).pixelColor(middle);
}

}  // namespace

class TestAppPlotPixels : public QObject {
    Q_OBJECT
  private slots:
    void theTimelineShowsEachChangeAtOnce();
};

void TestAppPlotPixels::theTimelineShowsEachChangeAtOnce() {
    ExperimentData data;
    data.setObjective("loss", true);
    StudyPlots plots(&data);
    plots.resize(900, 500);
    plots.show();
    plots.setCurrentWidget(plots.timelineView());
    TimelineView* timeline = plots.timelineView();
    const auto feed = [&](const tunedeck::events::Event& event) {
        data.apply(event);
        plots.apply(event);
    };
    feed(scripted::added("t1", {{"x", 1}}));
    feed(scripted::added("t2", {{"x", 2}}));
    feed(scripted::event("trial_status", {{"trial", "t1"}, {"status", "RUNNING"}, {"node", "n1"}},
                         1000));
    feed(scripted::event("trial_status", {{"trial", "t2"}, {"status", "RUNNING"}, {"node", "n1"}},
                         1000));
    feed(scripted::event("trial_status", {{"trial", "t1"}, {"status", "TERMINATED"}}, 1010));
    feed(scripted::event("result", {{"trial", "t2"}, {"result", QJsonObject{{"loss", 1}}}}, 1012));
    timeline->recomputeNow();
    QCOMPARE(barMiddle(timeline, "t1"), TimelineView::endColour(End::Completed));
    QCOMPARE(barMiddle(timeline, "t2"), TimelineView::endColour(End::Running));

    // t2 fails: its bar turns from running to failed in the next frame.
    feed(scripted::event("trial_status", {{"trial", "t2"}, {"status", "ERROR"}}, 1020));
    timeline->recomputeNow();
    QCOMPARE(barMiddle(timeline, "t2"), TimelineView::endColour(End::Failed));

    // A dark theme: the background follows.
    const QPoint margin(2, timeline->canvas()->height() - 2);  // below the lanes' names
    QCOMPARE(onScreen(timeline).pixelColor(margin), plots.palette().color(QPalette::Base));
    QPalette dark = plots.palette();
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    plots.setPalette(dark);
    QCOMPARE(onScreen(timeline).pixelColor(margin), QColor(30, 30, 30));

    // Selecting t1 outlines its bar in the text colour, just above it.
    QPoint above;
    for (const TimelineView::Bar& bar : timeline->bars()) {
        if (timeline->timeline().segments()[std::size_t(bar.segment)].trial == "t1") {
            const QRect r = timeline->barRect(bar).toRect();
            above = QPoint(r.center().x(), r.top() - 1);
        }
    }
    QCOMPARE(onScreen(timeline).pixelColor(above), QColor(30, 30, 30));
    timeline->setSelectedTrials({"t1"});
    QCOMPARE(onScreen(timeline).pixelColor(above), QColor(230, 230, 230));
    timeline->setSelectedTrials({});
    QCOMPARE(onScreen(timeline).pixelColor(above), QColor(30, 30, 30));
}

QTEST_MAIN(TestAppPlotPixels)
#include "tst_app_plot_pixels.moc"
