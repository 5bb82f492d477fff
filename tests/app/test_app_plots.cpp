// The study plots of issue 18 (optuna-dashboard's views) from the user's side. One real engine
// runs one small HyperBand experiment (six trials of tests/integration/trials/behaviour.py, one
// of which crashes once and is restarted, some paused at a rung and then resumed or stopped)
// watched by the window; every view is checked against what the engine and the trials
// themselves say: the best-so-far line ends at `tunedeck-engine best`'s score, each trial has as
// many timeline bars as its trial.log has starts, a crash's bar says "failed, restarted".
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>
#include <memory>

#include "analysis/parallel_coordinates_view.h"
#include "editors/experiment_editor.h"
#include "editors/experiment_editor_window.h"
#include "engine_harness.h"
#include "local_engine.h"
#include "message_box_answer.h"
#include "plots/contour_view.h"
#include "plots/edf_view.h"
#include "plots/optimization_history_view.h"
#include "plots/slice_view.h"
#include "plots/study_plots.h"
#include "plots/timeline_view.h"
#include "views/appearance.h"
#include "views/main_window.h"
#include "wait_for.h"

using namespace tunedeck::app;
using End = tunedeck::app::TimelineSegment::End;

namespace {

constexpr int kTrials = 6;

QString readText(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

class TestAppPlots : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void cleanupTestCase();
    void historyShowsEachTrialAndEndsAtTheEnginesBest();
    void sliceHasChoicesOnCategoriesAndLogParametersOnLogAxes();
    void contourInterpolatesBetweenTheTrialsOfTwoParameters();
    void distributionStepsThroughEveryTrial();
    void timelineHasABarPerRunSayingHowItEnded();
    void timelineClickSelectsTheTrialsRow();
    void numericChoicesGetCategoricalAxesOfTheirValues();
    void brushingTheParallelCoordinatesFiltersTheTable();
    // After the brushing: it switches the language, and the parallel coordinates keep the
    // lines they laid out in it.
    void theGermanWordsOfThePlotsShowWhole();
    void cloneReRunsWithEditsAndDeleteAsksFirst();

  private:
    // Shows `view` in the window's Study plots tab and recomputes it.
    template <typename View>
    View* show(View* view) {
        auto* tabs = window_->findChild<QTabWidget*>("views");
        tabs->setCurrentWidget(plots_);
        plots_->setCurrentWidget(view);
        view->recomputeNow();
        return view;
    }

    std::unique_ptr<EngineHarness> harness_;
    std::unique_ptr<app_test::LocalEngine> engine_;
    std::unique_ptr<MainWindow> window_;
    StudyPlots* plots_ = nullptr;
};

void TestAppPlots::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    harness_ = std::make_unique<EngineHarness>();
    engine_ = std::make_unique<app_test::LocalEngine>();
    window_ = std::make_unique<MainWindow>();
    QVERIFY(engine_->startAttached(*harness_, window_.get()));
    plots_ = window_->findChild<StudyPlots*>("studyPlots");
    QVERIFY2(plots_, "the window has no Study plots tab");
    window_->runExperimentFile(harness_->writeFile(
        "plots.yaml", QStringLiteral("name: plots\n"
                                     "trainable: {command: [python3, \"@TRIAL@\"]}\n"
                                     "search_space:\n"
                                     "  x: {uniform: [1, 5]}\n"
                                     "  lr: {loguniform: [0.0001, 0.1]}\n"
                                     "  opt: {choice: [adam, sgd]}\n"
                                     "  iterations: 4\n"
                                     "  crash_at: {choice: [3, 0, 0]}\n"
                                     "  batch_size: {choice: [16, 32, 64]}\n"
                                     "num_samples: 6\n"
                                     "metric: score\n"
                                     "mode: max\n"
                                     "seed: 7\n"
                                     "scheduler: {type: hyperband, max_t: 4, "
                                     "reduction_factor: 2}\n"
                                     "failure: {max_failures: 1}\n"
                                     "max_concurrent_trials: 2\n")));
    QVERIFY(waitFor([&] { return window_->data().experimentStatus() == "finished"; }, 120000));
    QCOMPARE(int(window_->data().trials().size()), kTrials);
    // The table follows the stream on the window's tick: the views are checked against it once
    // it shows how every trial ended (a loaded CI machine read it one tick early).
    const QAbstractItemModel* table = window_->findChild<QTableView*>("trials")->model();
    QVERIFY(waitFor(
        [&] {
            int ended = 0;
            for (int r = 0; r < table->rowCount(); ++r) {
                const QString status = table->index(r, 1).data().toString();
                ended += status.startsWith("stopped by") || status == "TERMINATED";
            }
            return ended == kTrials;
        },
        10000));
}

void TestAppPlots::cleanupTestCase() {
    window_.reset();
    engine_.reset();
    harness_.reset();
}

void TestAppPlots::historyShowsEachTrialAndEndsAtTheEnginesBest() {
    const EngineResult best = harness_->run({"best", harness_->experimentFolder("plots")});
    const QRegularExpressionMatch m =
        QRegularExpression("best trial (t[0-9]+) of plots: score=([-0-9.e+]+)").match(best.err);
    QVERIFY2(m.hasMatch(), qPrintable(best.all()));
    const double engineBest = m.captured(2).toDouble();

    auto* history = show(plots_->history());
    QCOMPARE(int(history->points().size()), kTrials);
    for (bool byTime : {false, true}) {
        history->setByTime(byTime);
        const std::vector<QPointF>& line = history->bestLine();
        QCOMPARE(int(line.size()), kTrials);
        for (std::size_t i = 1; i < line.size(); ++i) {
            QVERIFY(line[i].y() >= line[i - 1].y());  // mode max: it only rises
            QVERIFY(line[i].x() >= line[i - 1].x());
        }
        // The engine prints six significant digits.
        QVERIFY2(
            std::abs(line.back().y() - engineBest) <= 1e-4 * std::abs(engineBest),
            qPrintable(
                QStringLiteral("best so far %1, engine %2").arg(line.back().y()).arg(engineBest)));
    }
    QVERIFY2(history->note().contains(QString::number(history->bestLine().back().y(), 'g', 6)),
             qPrintable(history->note()));
}

void TestAppPlots::sliceHasChoicesOnCategoriesAndLogParametersOnLogAxes() {
    auto* slice = show(plots_->slice());
    QStringList keys;
    for (const SliceView::Panel& panel : slice->panels()) {
        keys << panel.key;
        if (panel.key != "crash_at") {
            QCOMPARE(int(panel.points.size()), kTrials);
        }
    }
    // The parameters that vary; `iterations` does not.
    QVERIFY2(keys.contains("x") && keys.contains("lr") && keys.contains("opt") &&
                 !keys.contains("iterations"),
             qPrintable(keys.join(',')));
    slice->setParameter("lr");
    QCOMPARE(int(slice->panels().size()), 1);
    QCOMPARE(slice->panels()[0].x.kind, PlotAxis::Kind::Log);
    slice->setParameter("opt");
    QCOMPARE(slice->panels()[0].x.kind, PlotAxis::Kind::Categorical);
    QCOMPARE(slice->panels()[0].x.categories, QStringList({"adam", "sgd"}));
    slice->setParameter("x");
    QCOMPARE(slice->panels()[0].x.kind, PlotAxis::Kind::Linear);
    slice->setParameter({});
}

void TestAppPlots::contourInterpolatesBetweenTheTrialsOfTwoParameters() {
    auto* contour = show(plots_->contour());
    contour->setParameters("lr", "x");
    QCOMPARE(contour->xBox()->currentText(), QStringLiteral("lr"));
    QCOMPARE(contour->xAxis().kind, PlotAxis::Kind::Log);
    QCOMPARE(int(contour->samples().size()), kTrials);
    double lo = INFINITY, hi = -INFINITY;
    for (const TrialRow& row : window_->data().trials()) {
        lo = std::min(lo, window_->data().score(window_->data().rowOf(row.id)));
        hi = std::max(hi, window_->data().score(window_->data().rowOf(row.id)));
    }
    int filled = 0;
    for (double cell : contour->surface().cells) {
        if (!std::isnan(cell)) {
            ++filled;
            QVERIFY(cell >= lo - 1e-9 && cell <= hi + 1e-9);  // a weighted mean stays in range
        }
    }
    QVERIFY2(filled > 0, "no surface drawn");
    contour->setParameters("opt", "x");
    QCOMPARE(contour->xAxis().kind, PlotAxis::Kind::Categorical);
    QCOMPARE(int(contour->samples().size()), kTrials);
}

void TestAppPlots::distributionStepsThroughEveryTrial() {
    auto* edf = show(plots_->edf());
    QCOMPARE(edf->trialCount(), kTrials);
    const std::vector<QPointF>& steps = edf->steps();
    QVERIFY(!steps.empty());
    QCOMPARE(steps.back().y(), 1.0);
    QCOMPARE(steps.front().y(), 1.0 / kTrials);
    for (std::size_t i = 1; i < steps.size(); ++i) {
        QVERIFY(steps[i].x() > steps[i - 1].x() && steps[i].y() > steps[i - 1].y());
    }
}

void TestAppPlots::timelineHasABarPerRunSayingHowItEnded() {
    auto* timeline = show(plots_->timelineView());
    const auto& segments = timeline->timeline().segments();
    auto* table = window_->findChild<QTableView*>("trials");
    std::map<End, int> seen;
    for (const TrialRow& row : window_->data().trials()) {
        const QString log =
            readText(harness_->experimentFolder("plots") + "/trials/" + row.id + "/trial.log");
        const int starts = int(log.count("start iteration="));
        const int crashes = int(log.count("crashing on purpose"));
        std::vector<End> ends;
        for (const TimelineSegment::End& end : [&] {
                 std::vector<End> out;
                 for (const TimelineView::Bar& bar : timeline->bars()) {
                     if (segments[std::size_t(bar.segment)].trial == row.id) {
                         out.push_back(segments[std::size_t(bar.segment)].how);
                     }
                 }
                 return out;
             }()) {
            ends.push_back(end);
            ++seen[end];
        }
        QVERIFY2(int(ends.size()) == starts,
                 qPrintable(QStringLiteral("%1: %2 bars, %3 starts in trial.log")
                                .arg(row.id)
                                .arg(ends.size())
                                .arg(starts)));
        QCOMPARE(int(std::count(ends.begin(), ends.end(), End::Restarted)), crashes);
        // Its last run ended as the table says the trial ended.
        QString status;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            if (table->model()->index(r, 0).data().toString() == row.id) {
                status = table->model()->index(r, 1).data().toString();
            }
        }
        QCOMPARE(ends.back(),
                 status.startsWith("stopped by HyperBand") ? End::StoppedEarly : End::Completed);
        for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
            QVERIFY(ends[i] == End::Restarted || ends[i] == End::Paused);
        }
    }
    // The experiment did what the views must tell apart.
    QVERIFY2(seen[End::Restarted] >= 1 && seen[End::Paused] >= 1 && seen[End::StoppedEarly] >= 1 &&
                 seen[End::Completed] >= 1,
             "the experiment no longer restarts, pauses and stops trials");
    QVERIFY(!timeline->lanes().empty());
}

void TestAppPlots::timelineClickSelectsTheTrialsRow() {
    auto* timeline = show(plots_->timelineView());
    QVERIFY(!timeline->bars().empty());
    const TimelineView::Bar& bar = timeline->bars().back();
    const QString trial = timeline->timeline().segments()[std::size_t(bar.segment)].trial;
    QTest::mouseClick(timeline->canvas(), Qt::LeftButton, {},
                      timeline->barRect(bar).center().toPoint());
    auto* table = window_->findChild<QTableView*>("trials");
    const QModelIndexList rows = table->selectionModel()->selectedRows();
    QCOMPARE(int(rows.size()), 1);
    QCOMPARE(rows[0].data().toString(), trial);
}

// The German screenshots at 1280x800: the timeline's legend ran into its count ("ls" of "6
// Läufe von Trials"), and the colour bars of the contour and the parallel coordinates cut
// "schlechtester" to "schlechte...". Each is whole now.
void TestAppPlots::theGermanWordsOfThePlotsShowWhole() {
    QCOMPARE(tunedeck::app::applyAppearance({tunedeck::app::Theme::Light, QStringLiteral("de")}),
             QStringLiteral("de"));
    window_->resize(1280, 800);
    auto* timeline = show(plots_->timelineView());
    QTest::qWait(50);
    auto* note = timeline->findChild<QLabel*>(QStringLiteral("timelineNote"));
    QVERIFY2(note && note->isVisible(), "the timeline's count is not shown beside its controls");
    QVERIFY2(note->text().contains(QStringLiteral("Läufe")), qPrintable(note->text()));
    QVERIFY2(
        note->width() >= note->sizeHint().width(),
        qPrintable(QStringLiteral("%1 px of %2").arg(note->width()).arg(note->sizeHint().width())));

    auto* contour = show(plots_->contour());
    QTest::qWait(50);
    const QString worst = ContourView::tr("worst");
    QCOMPARE(worst, QStringLiteral("schlechtester"));
    // Right of the plot: 14 px, the 14 px bar, 4 px, then the words.
    const double words = contour->canvas()->width() - contour->area().right() - 32;
    QVERIFY2(words >= QFontMetricsF(contour->canvas()->font()).horizontalAdvance(worst),
             qPrintable(QStringLiteral("%1 px for '%2'").arg(words).arg(worst)));

    auto* parallel = window_->findChild<ParallelCoordinatesView*>();
    window_->tabs()->setCurrentWidget(parallel);
    QTest::qWait(50);
    QFont small = parallel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    // Right of the metric axis: 30 px, the 14 px bar, 4 px, then the words.
    const double room = parallel->width() - parallel->plotArea().right() - 48;
    QVERIFY2(room >= QFontMetricsF(small).horizontalAdvance(ParallelCoordinatesView::tr("worst")),
             qPrintable(QStringLiteral("%1 px").arg(room)));
    tunedeck::app::applyAppearance({tunedeck::app::Theme::Light, QStringLiteral("en")});
}

// batch_size: {choice: [16, 32, 64]} is a choice of three sizes, not a number from 16 to 64:
// slice, contour and parallel coordinates label its axis 16, 32, 64 (they read 20, 40, 60), in
// the window that ran it and in one that opened its folder from the SQLite file alone.
void TestAppPlots::numericChoicesGetCategoricalAxesOfTheirValues() {
    const QStringList sizes{"16", "32", "64"};
    const auto labels = [](const PlotAxis& axis) {
        QStringList texts;
        for (const auto& tick : axis.ticks(8)) {
            texts << tick.second;
        }
        return texts;
    };
    MainWindow reopened;
    reopened.openFolder(harness_->experimentFolder("plots"));
    QVERIFY(waitFor([&] { return int(reopened.data().trials().size()) == kTrials; }, 20000));
    for (MainWindow* window : {window_.get(), &reopened}) {
        auto* plots = window->findChild<StudyPlots*>("studyPlots");
        auto* tabs = window->findChild<QTabWidget*>("views");
        tabs->setCurrentWidget(plots);
        plots->setCurrentWidget(plots->slice());
        plots->slice()->setParameter("batch_size");
        plots->slice()->recomputeNow();
        QCOMPARE(int(plots->slice()->panels().size()), 1);
        QCOMPARE(labels(plots->slice()->panels()[0].x), sizes);
        plots->setCurrentWidget(plots->contour());
        plots->contour()->setParameters("batch_size", "x");
        plots->contour()->recomputeNow();
        QCOMPARE(labels(plots->contour()->xAxis()), sizes);
        plots->slice()->setParameter({});

        auto* parallel = window->findChild<ParallelCoordinatesView*>();
        window->show();  // the view recomputes only while shown
        tabs->setCurrentWidget(parallel);
        parallel->refresh();
        QVERIFY(waitFor(
            [&] {
                for (const ParameterScale& axis : parallel->axes()) {
                    if (axis.key == "batch_size") {
                        return true;
                    }
                }
                return false;
            },
            5000));
        for (const ParameterScale& axis : parallel->axes()) {
            if (axis.key == "batch_size") {
                QCOMPARE(axis.kind, ParameterScale::Kind::Categorical);
                QCOMPARE(axis.categories, sizes);
            }
        }
    }
}

// A drag along an axis of the parallel coordinates keeps in the table only the trials inside
// it, a second brush narrows that to the trials inside both, and the button that says so shows
// every trial again.
void TestAppPlots::brushingTheParallelCoordinatesFiltersTheTable() {
    window_->resize(1280, 800);
    window_->show();
    auto* tabs = window_->findChild<QTabWidget*>("views");
    auto* parallel = window_->findChild<ParallelCoordinatesView*>();
    tabs->setCurrentWidget(parallel);
    parallel->refresh();
    const auto axisOf = [&](const QString& key) {
        for (int a = 0; a < int(parallel->axes().size()); ++a) {
            if (parallel->axes()[std::size_t(a)].key == key) {
                return a;
            }
        }
        return -1;
    };
    QVERIFY(waitFor([&] { return axisOf("x") >= 0 && axisOf("opt") >= 0; }, 5000));
    auto* table = window_->findChild<QTableView*>("trials");
    const auto shown = [&] {
        QStringList ids;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            ids << table->model()->index(r, 0).data().toString();
        }
        ids.sort();
        return ids;
    };
    QCOMPARE(int(shown().size()), kTrials);
    const auto drag = [&](int axis, double fromY, double toY) {
        const int x =
            int(std::lround(parallel->vertexOf(window_->data().trials()[0].id, axis).x()));
        QTest::mousePress(parallel, Qt::LeftButton, {}, QPoint(x, int(std::lround(fromY))));
        QTest::mouseMove(parallel, QPoint(x, int(std::lround((fromY + toY) / 2))));
        QTest::mouseMove(parallel, QPoint(x, int(std::lround(toY))));
        QTest::mouseRelease(parallel, Qt::LeftButton, {}, QPoint(x, int(std::lround(toY))));
    };
    // The trials where their lines cross the x axis, top first; brush the second to the fourth.
    const int x = axisOf("x");
    std::vector<std::pair<double, QString>> onX;
    for (const TrialRow& row : window_->data().trials()) {
        onX.emplace_back(parallel->vertexOf(row.id, x).y(), row.id);
    }
    std::sort(onX.begin(), onX.end());
    QVERIFY2(onX[1].first - onX[0].first > 3 && onX[4].first - onX[3].first > 3,
             "the trials' x values are too close to brush between them");
    drag(x, (onX[0].first + onX[1].first) / 2, (onX[3].first + onX[4].first) / 2);
    QStringList inside{onX[1].second, onX[2].second, onX[3].second};
    inside.sort();
    QCOMPARE(shown(), inside);
    auto* clear = window_->findChild<QPushButton*>("clearBrush");
    QVERIFY(clear->isVisible());
    QVERIFY2(clear->text().contains("3 of 6"), qPrintable(clear->text()));

    // And only adam on opt (the lower of its two categories, adam and sgd).
    const int opt = axisOf("opt");
    QStringList both;
    for (const QString& id : inside) {
        const int row = window_->data().rowOf(id);
        if (window_->data().trials()[std::size_t(row)].flatConfig.value("opt").toString() ==
            "adam") {
            both << id;
        }
    }
    double lowest = 0;
    for (const TrialRow& row : window_->data().trials()) {
        lowest = std::max(lowest, parallel->vertexOf(row.id, opt).y());
    }
    drag(opt, lowest + 6, lowest - 20);
    QCOMPARE(shown(), both);

    QTest::mouseClick(clear, Qt::LeftButton);
    QCOMPARE(int(shown().size()), kTrials);
    QVERIFY(!clear->isVisible());

    // On batch_size (16, 32, 64 bottom to top) a drag from 9/10 of the way up to 55/100, between
    // the ticks of 64 and 32, reaches into both their slots: their trials are kept.
    const double top = onX.front().first;  // x's largest value is at the top of the axes
    const double bottom = onX.back().first;
    const auto at = [&](double fraction) { return bottom - fraction * (bottom - top); };
    drag(axisOf("batch_size"), at(0.9), at(0.55));
    QStringList large;
    for (const TrialRow& row : window_->data().trials()) {
        if (row.flatConfig.value("batch_size").toInt() >= 32) {
            large << row.id;
        }
    }
    large.sort();
    QVERIFY2(!large.isEmpty(), "no trial drew batch_size 32 or 64");
    QCOMPARE(shown(), large);
    parallel->clearBrushes();
    QCOMPARE(int(shown().size()), kTrials);
}

// Experiment management, on the same run: Clone puts plots' file as it ran, named plots-2, beside
// plots.yaml in the editor; an edit (two samples) and Run start it on the engine. Delete asks
// first, keeps the folder on Cancel and removes it on Delete.
void TestAppPlots::cloneReRunsWithEditsAndDeleteAsksFirst() {
    const auto action = [&](QWidget* window, const QString& text) -> QAction* {
        for (QAction* menu : window->findChild<QMenuBar*>()->actions()) {
            for (QAction* item : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
                if (item->text().remove('&') == text) {
                    return item;
                }
            }
        }
        return nullptr;
    };
    QVERIFY(action(window_.get(), "Clone into editor..."));
    action(window_.get(), "Clone into editor...")->trigger();
    auto* editorWindow = window_->findChild<ExperimentEditorWindow*>();
    QVERIFY(editorWindow && editorWindow->isVisible());
    ExperimentEditor* editor = editorWindow->editor();
    QCOMPARE(QFileInfo(editor->path()).fileName(), QStringLiteral("plots-2.yaml"));
    QCOMPARE(QFileInfo(editor->path()).absolutePath(),
             QFileInfo(harness_->root() + "/plots.yaml").absolutePath());
    const QString text = editor->text();
    QVERIFY2(text.startsWith("name: plots-2\n") &&
                 text.contains("batch_size: {choice: [16, "
                               "32, 64]}") &&
                 text.contains("num_samples: 6\n"),
             qPrintable(text));
    editor->setText(QString(text).replace("num_samples: 6\n", "num_samples: 2\n"));
    action(editorWindow, "Run")->trigger();
    QVERIFY(waitFor(
        [&] {
            return window_->currentExperiment() == "plots-2" &&
                   window_->data().experimentStatus() == "finished";
        },
        60000));
    QCOMPARE(int(window_->data().trials().size()), 2);
    const QString folder = harness_->experimentFolder("plots-2");
    QVERIFY(QFileInfo::exists(folder + "/experiment.sqlite"));

    // Once the engine's list says it no longer runs, its folder can go.
    auto* list = window_->findChild<QTreeWidget*>();
    QVERIFY(waitFor(
        [&] {
            action(window_.get(), "Refresh list")->trigger();
            const auto rows = list->findItems("plots-2", Qt::MatchExactly);
            return !rows.isEmpty() && rows[0]->text(1) == "finished";
        },
        20000));
    // Until the engine's list says the run's process is gone too, Delete says to try again in
    // a moment (a box without Cancel, which the answer closes); then it asks.
    QString asked;
    QVERIFY2(waitFor(
                 [&] {
                     app_test::MessageBoxAnswer cancel(QMessageBox::Cancel);
                     action(window_.get(), "Delete experiment folder...")->trigger();
                     asked = cancel.seen();
                     return cancel.answered();
                 },
                 20000),
             qPrintable(asked));
    QVERIFY2(asked.contains(folder) && asked.contains("cannot be undone"), qPrintable(asked));
    QVERIFY(QFileInfo::exists(folder + "/experiment.sqlite"));
    QCOMPARE(window_->currentExperiment(), QStringLiteral("plots-2"));
    {
        app_test::MessageBoxAnswer remove("Delete");
        action(window_.get(), "Delete experiment folder...")->trigger();
        QVERIFY2(remove.answered(), qPrintable(remove.seen()));
    }
    QVERIFY(!QFileInfo::exists(folder));
    QVERIFY(window_->currentExperiment().isEmpty());
    QVERIFY(QFileInfo::exists(harness_->experimentFolder("plots") + "/experiment.sqlite"));
}

QTEST_MAIN(TestAppPlots)
#include "test_app_plots.moc"
