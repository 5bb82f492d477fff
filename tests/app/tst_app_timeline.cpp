// The timeline against scripted events: lanes per node and card, how each run ended, and what
// reaches the screen, read back as pixels. The timeline keeps its drawing between frames (so a
// hover or a selection at 10,000 trials costs one copy); what it keeps must never be older than
// what it shows: new runs, a changed theme and the selection each appear at once. The timeline
// of a real engine's run is test_app_plots.
#include <QJsonArray>
#include <QtTest>

#include "models/experiment_data.h"
#include "plots/study_plots.h"
#include "plots/timeline_view.h"
#include "scripted_events.h"

using namespace tunedeck::app;

namespace {

using End = TimelineSegment::End;

// The study plots of a scripted experiment, showing the timeline.
struct ScriptedTimeline {
    ScriptedTimeline() : plots(&data) {
        data.setObjective("loss", true);
        plots.resize(900, 500);
        plots.show();
        plots.setCurrentWidget(plots.timelineView());
    }
    void feed(const tunedeck::events::Event& event) {
        data.apply(event);
        plots.apply(event);
    }
    TimelineView* view() { return plots.timelineView(); }

    ExperimentData data;
    StudyPlots plots;
};

tunedeck::events::Event runningOn(const QString& trial, const QString& node) {
    return scripted::event("trial_status",
                           {{"trial", trial}, {"status", "RUNNING"}, {"node", node}}, 1000);
}

// The canvas as the screen shows it.
QImage onScreen(const TimelineView* timeline) {
    return timeline->canvas()->grab().toImage();
}

// The last bar of `trial` on the canvas.
QRect lastBarOf(const TimelineView* timeline, const QString& trial) {
    QRect rect;
    for (const TimelineView::Bar& bar : timeline->bars()) {
        if (timeline->timeline().segments()[std::size_t(bar.segment)].trial == trial) {
            rect = timeline->barRect(bar).toRect();
        }
    }
    return rect;
}

QColor barMiddle(const TimelineView* timeline, const QString& trial) {
    return onScreen(timeline).pixelColor(lastBarOf(timeline, trial).center());
}

}  // namespace

class TestAppTimeline : public QObject {
    Q_OBJECT
  private slots:
    void lanesPerCardAndFailures();
    void eachChangeReachesTheScreenAtOnce();
};

void TestAppTimeline::lanesPerCardAndFailures() {
    // A trial on card 1 of node gpu1 that fails for good; one on no card.
    ScriptedTimeline s;
    s.feed(scripted::added("t1", {{"x", 1}}));
    s.feed(scripted::added("t2", {{"x", 2}}));
    s.feed(scripted::status("t1", "RUNNING", "gpu1"));
    s.feed(scripted::status("t2", "RUNNING", "cpu1"));
    s.feed(scripted::event(
        "node_usage",
        {{"node", "gpu1"},
         {"gpus", QJsonArray{QJsonObject{{"index", 1}, {"trials", QJsonArray{"t1"}}}}}},
        1001));
    s.feed(scripted::event("trial_status",
                           {{"trial", "t1"}, {"status", "ERROR"}, {"reason", "boom"}}, 1002));
    s.view()->recomputeNow();
    QCOMPARE(int(s.view()->bars().size()), 2);
    QStringList lanes;
    for (const TimelineView::Lane& lane : s.view()->lanes()) {
        lanes << lane.name;
    }
    QCOMPARE(lanes, QStringList({"cpu1", "gpu1 · GPU 1"}));
    const auto& segments = s.view()->timeline().segments();
    QCOMPARE(segments[0].how, End::Failed);
    QCOMPARE(segments[0].reason, QStringLiteral("boom"));
    QCOMPARE(segments[1].how, End::Running);
}

void TestAppTimeline::eachChangeReachesTheScreenAtOnce() {
    ScriptedTimeline s;
    TimelineView* timeline = s.view();
    s.feed(scripted::added("t1", {{"x", 1}}));
    s.feed(scripted::added("t2", {{"x", 2}}));
    s.feed(runningOn("t1", "n1"));
    s.feed(runningOn("t2", "n1"));
    s.feed(scripted::event("trial_status", {{"trial", "t1"}, {"status", "TERMINATED"}}, 1010));
    s.feed(
        scripted::event("result", {{"trial", "t2"}, {"result", QJsonObject{{"loss", 1}}}}, 1012));
    timeline->recomputeNow();
    QCOMPARE(barMiddle(timeline, "t1"), TimelineView::endColour(End::Completed));
    QCOMPARE(barMiddle(timeline, "t2"), TimelineView::endColour(End::Running));

    // t2 fails: its bar turns from running to failed in the next frame.
    s.feed(scripted::event("trial_status", {{"trial", "t2"}, {"status", "ERROR"}}, 1020));
    timeline->recomputeNow();
    QCOMPARE(barMiddle(timeline, "t2"), TimelineView::endColour(End::Failed));

    // A dark theme: the background follows.
    const QPoint margin(2, timeline->canvas()->height() - 2);  // below the lanes' names
    QCOMPARE(onScreen(timeline).pixelColor(margin), s.plots.palette().color(QPalette::Base));
    QPalette dark = s.plots.palette();
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    s.plots.setPalette(dark);
    QCOMPARE(onScreen(timeline).pixelColor(margin), QColor(30, 30, 30));

    // Selecting t1 outlines its bar in the text colour, just above it.
    const QRect t1 = lastBarOf(timeline, "t1");
    const QPoint above(t1.center().x(), t1.top() - 1);
    QCOMPARE(onScreen(timeline).pixelColor(above), QColor(30, 30, 30));
    timeline->setSelectedTrials({"t1"});
    QCOMPARE(onScreen(timeline).pixelColor(above), QColor(230, 230, 230));
    timeline->setSelectedTrials({});
    QCOMPARE(onScreen(timeline).pixelColor(above), QColor(30, 30, 30));
}

QTEST_MAIN(TestAppTimeline)
#include "tst_app_timeline.moc"
