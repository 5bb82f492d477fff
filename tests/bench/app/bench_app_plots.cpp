// The study plots at 10,000 trials (issue 18's goal: under 16 ms of GUI-thread time per
// refresh). An experiment of 10,000 trials on 8 nodes of 4 cards, each with 20 results and one
// run segment or two (a pause, a restart), is built from decoded events as the window gets them;
// then each view is refreshed and painted at 1280x800 as the window does after a frame's
// changes: all of its points recomputed, then one paint. The Pareto front plot gets the same
// trials reporting two objectives (loss and latency_ms), and each of its frames follows one new
// result, so the front is found again as in a live run. Printed beside the reference measured
// in the same run: the Parameter vs metric scatter (QtCharts) over the same trials. Each line
// gives the wall time and the GUI thread's own CPU time: on a loaded machine the wall time holds
// the waits for a core too. `--trials=N` changes the size. Not a test: it prints figures and
// asserts none.
#include <QApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

#include "api/event_decoders.h"
#include "charts/scatter_view.h"
#include "median.h"
#include "models/experiment_data.h"
#include "plots/optimization_history_view.h"
#include "plots/pareto_front_view.h"
#include "plots/study_plots.h"
#include "plots/timeline_view.h"

using namespace tunedeck;
using namespace tunedeck::app;

namespace {

constexpr int kResultsPerTrial = 20;
constexpr int kFrames = 15;  // refreshes measured per view

qint64 seq = 0;

events::Event decoded(const QString& type, QJsonObject payload, double time) {
    payload.insert("type", type);
    payload.insert("seq", ++seq);
    payload.insert("time", time);
    payload.insert("v", 1);
    events::Event event;
    if (!events::decodeEvent(payload, &event)) {
        qFatal("bench event refused");
    }
    return event;
}

// Feeds `data` and `plots` an experiment of `trials` trials, 16 running at a time per node.
void buildExperiment(int trials, ExperimentData& data, StudyPlots& plots) {
    data.setObjective("loss", true);
    const auto feed = [&](const events::Event& event) {
        data.apply(event);
        plots.apply(event);
    };
    const double start = 1.7e9;
    for (int t = 0; t < trials; ++t) {
        const QString id = QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0'));
        const int node = t % 8;
        const int card = (t / 8) % 4;
        const double begin = start + (t / 32) * 30.0 + (t % 7);
        feed(decoded("trial_added",
                     {{"trial", id},
                      {"config", QJsonObject{{"lr", 1e-4 * (1 + t % 997)},
                                             {"width", 32 * (1 + t % 5)},
                                             {"opt", t % 3 == 0 ? "adam" : "sgd"}}}},
                     begin));
        feed(decoded(
            "trial_status",
            {{"trial", id}, {"status", "RUNNING"}, {"node", QStringLiteral("node%1").arg(node)}},
            begin));
        feed(decoded(
            "node_usage",
            {{"node", QStringLiteral("node%1").arg(node)},
             {"gpus", QJsonArray{QJsonObject{{"index", card}, {"trials", QJsonArray{id}}}}}},
            begin + 1));
        for (int it = 1; it <= kResultsPerTrial; ++it) {
            const double loss = 1.0 / (it + 1) + double((t * 7919) % 1000) / 2000.0;
            feed(decoded("result",
                         {{"trial", id},
                          {"result", QJsonObject{{"training_iteration", it}, {"loss", loss}}}},
                         begin + it));
            if (it == 10 && t % 5 == 0) {  // a pause, resumed at once
                feed(decoded("trial_status", {{"trial", id}, {"status", "PAUSED"}}, begin + it));
                feed(decoded("trial_status", {{"trial", id}, {"status", "RUNNING"}},
                             begin + it + 1));
            }
        }
        feed(decoded("trial_status", {{"trial", id}, {"status", "TERMINATED"}},
                     begin + kResultsPerTrial + 1));
    }
}

// `trials` trials of two objectives that trade off: a lower loss costs latency.
void buildTwoObjectives(int trials, ExperimentData& data) {
    data.setObjective("loss", true);
    data.setObjectives({{"loss", MetricMode::Min}, {"latency_ms", MetricMode::Min}});
    for (int t = 0; t < trials; ++t) {
        const QString id = QStringLiteral("t%1").arg(t, 5, 10, QLatin1Char('0'));
        const double begin = 1.7e9 + t;
        data.apply(decoded("trial_added",
                           {{"trial", id}, {"config", QJsonObject{{"lr", 1e-4 * (1 + t % 997)}}}},
                           begin));
        const double a = double((t * 7919) % 1000) / 1000.0;
        const double b = double((t * 104729) % 1000) / 4000.0;
        for (int it = 1; it <= kResultsPerTrial; ++it) {
            const double loss = a + b + 1.0 / (it + 1);
            const double latency = 10 * (1 - a) + 10 * b;
            data.apply(decoded("result",
                               {{"trial", id},
                                {"result", QJsonObject{{"training_iteration", it},
                                                       {"loss", loss},
                                                       {"latency_ms", latency}}}},
                               begin + it));
        }
    }
}

struct Figures {
    double median = 0;
    double worst = 0;
    double cpuMedian =
        0;  // the GUI thread's own CPU time: what is left when others load the machine
};

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Times `frame` kFrames times (after one warm-up), in milliseconds.
Figures measure(const std::function<void()>& frame) {
    frame();
    std::vector<double> ms;
    std::vector<double> cpuMs;
    QElapsedTimer timer;
    for (int i = 0; i < kFrames; ++i) {
        const double cpuStart = threadCpuMs();
        timer.start();
        frame();
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
        cpuMs.push_back(threadCpuMs() - cpuStart);
    }
    return {median(ms), *std::max_element(ms.begin(), ms.end()), median(cpuMs)};
}

void print(const char* what, const Figures& f) {
    std::printf("  %-48s median %6.1f ms   worst %6.1f ms   CPU median %6.1f ms\n", what, f.median,
                f.worst, f.cpuMedian);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int trials = 10000;
    for (const QString& arg : app.arguments()) {
        if (arg.startsWith("--trials=")) {
            trials = arg.mid(9).toInt();
        }
    }
    ExperimentData data;
    StudyPlots plots(&data);
    plots.resize(1280, 800);
    plots.show();
    QElapsedTimer built;
    built.start();
    buildExperiment(trials, data, plots);
    plots.refresh();
    std::printf("%d trials, %zu run segments (built in %.1f s)\n", trials,
                plots.timeline().segments().size(), double(built.elapsed()) / 1000);
    std::printf("one refresh (recompute every point) + one paint at 1280x800, GUI thread:\n");

    // Painted into an image as the window's backing store is (the offscreen platform may not
    // paint a widget it has not exposed).
    QImage image(plots.size(), QImage::Format_ARGB32_Premultiplied);
    const auto paint = [&](QWidget* widget) {
        image.fill(Qt::white);
        widget->render(&image);
    };
    plots.setCurrentWidget(plots.history());
    QApplication::processEvents();
    OptimizationHistoryView* history = plots.history();
    print("optimisation history, by trial number", measure([&] {
              history->recomputeNow();
              paint(history->canvas());
          }));
    history->setByTime(true);
    print("optimisation history, by time", measure([&] {
              history->recomputeNow();
              paint(history->canvas());
          }));
    plots.setCurrentWidget(plots.timelineView());
    QApplication::processEvents();
    TimelineView* timeline = plots.timelineView();
    print("timeline", measure([&] {
              timeline->recomputeNow();
              paint(timeline->canvas());
          }));
    print("timeline, paint only (hover, selection)", measure([&] { paint(timeline->canvas()); }));

    // The Pareto front over the same number of trials, each frame after one new result.
    ExperimentData twoObjectives;
    buildTwoObjectives(trials, twoObjectives);
    ParetoFrontView pareto(&twoObjectives);
    pareto.resize(1280, 800);
    pareto.show();
    QApplication::processEvents();
    int iteration = kResultsPerTrial;
    print("Pareto front (front found again, 2 objectives)", measure([&] {
              ++iteration;
              twoObjectives.apply(decoded("result",
                                          {{"trial", "t00000"},
                                           {"result", QJsonObject{{"training_iteration", iteration},
                                                                  {"loss", 2.0},
                                                                  {"latency_ms", 20.0}}}},
                                          2e9));
              pareto.recomputeNow();
              paint(pareto.canvas());
          }));
    std::printf("  (%d of %d trials on the front)\n", int(pareto.frontTrials().size()),
                pareto.pointCount());
    print("Pareto front, the front alone (after a result)", measure([&] {
              ++iteration;
              twoObjectives.apply(decoded("result",
                                          {{"trial", "t00000"},
                                           {"result", QJsonObject{{"training_iteration", iteration},
                                                                  {"loss", 2.0},
                                                                  {"latency_ms", 20.0}}}},
                                          2e9));
              twoObjectives.paretoFront();
          }));
    print("Pareto front, paint only (hover, selection)", measure([&] { paint(pareto.canvas()); }));

    // The reference: the window's Parameter vs metric scatter over the same trials.
    ScatterView scatter(&data);
    scatter.resize(1280, 800);
    scatter.show();
    print("reference: Parameter vs metric (QtCharts)", measure([&] {
              scatter.setSelectedTrials({});  // recomputes at once
              paint(&scatter);
          }));
    return 0;
}
