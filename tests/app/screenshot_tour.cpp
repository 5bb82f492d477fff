// A tour of the app for people to look at, not a test: starts a real `tunedeck-engine serve` in a
// temporary folder, walks the window through the whole loop (start page, a template copied and
// edited, a real run watched live, trials compared, the analysis views, two experiments compared,
// dark palette, German, the loop attached over SSH) and saves a PNG of each view in the folder
// given as its argument.
// scripts/screenshots runs it under Xvfb.
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <csignal>

#include "analysis/parallel_coordinates_view.h"
#include "editors/cluster_editor.h"
#include "editors/experiment_editor.h"
#include "fake_gpus.h"
#include "message_box_answer.h"
#include "screenshot_tour.h"
#include "views/appearance.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"
#include "wait_for.h"

using namespace tunedeck::app;

namespace tour {

QString outputFolder;

void shoot(QWidget* widget, const QString& name) {
    QTest::qWait(400);  // a frame or two of every view
    const QString path = QDir(outputFolder).filePath(name + ".png");
    widget->window()->grab().save(path);
    qInfo("saved %s", qPrintable(path));
}

// The whole screen, for a dialog over its window.
void shootScreen(QWidget* dialog, const QString& name) {
    const QString path = QDir(outputFolder).filePath(name + ".png");
    QPixmap screen = dialog->screen()->grabWindow(0);
    (screen.isNull() || screen.toImage().allGray() ? dialog->grab() : screen).save(path);
    qInfo("saved %s", qPrintable(path));
}

// A menu's action, by its object name or its words, as a user picks it.
void triggerMenuAction(MainWindow& window, const char* name) {
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
            if (a->objectName() == QLatin1String(name) ||
                a->text().remove('&') == QLatin1String(name)) {
                a->trigger();
            }
        }
    }
}

void showTab(MainWindow& window, const QString& title) {
    for (int i = 0; i < window.tabs()->count(); ++i) {
        if (window.tabs()->tabText(i) == title) {
            window.tabs()->setCurrentIndex(i);
        }
    }
}
}  // namespace tour

namespace {

using tour::shoot;
using tour::shootScreen;
using tour::showTab;

// The parallel coordinates with the upper half of the first axis brushed: the table filtered,
// the button that clears it, the brushed lines over the faded rest. Cleared again after.
void shootBrushed(MainWindow& window, const QString& name) {
    auto* parallel = window.findChild<ParallelCoordinatesView*>();
    if (parallel == nullptr || window.data().trials().empty()) {
        return;
    }
    window.tabs()->setCurrentWidget(parallel);
    QTest::qWait(500);  // recomputed once shown
    if (parallel->axes().size() < 2) {
        return;
    }
    const QString first = window.data().trials().front().id;
    const double x = parallel->vertexOf(first, 0).x();
    // The first axis runs from 40 px below the top to 18 px above the bottom.
    const QPoint top(int(x), 44);
    const QPoint middle(int(x), parallel->height() / 2);
    QTest::mousePress(parallel, Qt::LeftButton, {}, top);
    QTest::mouseMove(parallel, middle);
    QTest::mouseRelease(parallel, Qt::LeftButton, {}, middle);
    QTest::qWait(200);
    shoot(&window, name);
    parallel->clearBrushes();
}

// Experiment > Clone into editor (the clone in the editor, then closed) and the question Delete
// experiment folder asks (answered Cancel: nothing is deleted).
void shootManagement(MainWindow& window, const QString& name) {
    window.cloneShownExperiment();
    for (ExperimentEditor* editor : window.findChildren<ExperimentEditor*>()) {
        if (editor->window()->isVisible() && QRegularExpression(QStringLiteral("-[0-9]+\\.yaml$"))
                                                 .match(editor->path())
                                                 .hasMatch()) {
            editor->window()->resize(1280, 800);
            QTest::qWait(300);
            shoot(editor, name + QStringLiteral("-clone-editor"));
            editor->window()->close();
        }
    }
    app_test::MessageBoxAnswer cancel(QMessageBox::Cancel, [name](QMessageBox* box) {
        QTest::qWait(300);
        shootScreen(box, name + QStringLiteral("-delete-question"));
    });
    window.deleteShownExperiment();
}

// Each view of the Study plots tab (plots/study_plots.h), as NAME-history.png and so on.
void shootStudyPlots(MainWindow& window, const QString& name) {
    auto* plots = window.findChild<QTabWidget*>(QStringLiteral("studyPlots"));
    if (plots == nullptr) {
        return;
    }
    window.tabs()->setCurrentWidget(plots);
    const char* views[] = {"history", "slice", "contour", "distribution", "timeline", "pareto"};
    for (int i = 0; i < plots->count() && i < int(std::size(views)); ++i) {
        plots->setCurrentIndex(i);
        QTest::qWait(300);  // the view recomputes once shown
        shoot(&window, QStringLiteral("%1-%2").arg(name, QString::fromLatin1(views[i])));
    }
    plots->setCurrentIndex(0);
}

int fail(const char* what) {
    qCritical("screenshot tour: %s", what);
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("tunedeck-screenshots"));
    QStandardPaths::setTestModeEnabled(true);  // its own settings and recent lists
    QSettings().clear();  // every run starts as a new user: no recent servers or files
    if (argc < 2) {
        qCritical("usage: %s OUTPUT_FOLDER [best-and-stops]", argv[0]);
        return 2;
    }
    // One part alone, to look at it again without the whole tour.
    const bool onlyBestAndStops = argc > 2 && QByteArray(argv[2]) == "best-and-stops";
    tour::outputFolder = QString::fromLocal8Bit(argv[1]);
    QDir().mkpath(tour::outputFolder);
    QTemporaryDir work;
    const QString socket = work.filePath("engine.sock");
    QProcess engine;
    engine.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    engine.start(QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine"),
                 {"serve", "--listen", "unix:" + socket, "--results", work.filePath("results")});
    if (!waitFor([&] { return QFile::exists(socket); }, 20000)) {
        return fail("the engine did not start");
    }
    const auto stopEngine = [&engine] {
        ::kill(pid_t(engine.processId()), SIGTERM);
        engine.waitForFinished(30000);
    };

    applyAppearance({Theme::Light, QStringLiteral("en")});
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    window.attachLocal(socket, {});
    if (!waitFor([&] { return window.client().isReady(); }, 20000)) {
        return fail("not attached");
    }
    if (onlyBestAndStops) {
        tour::shootBestAndStops(socket, work);
        stopEngine();
        return 0;
    }
    shoot(&window, "01-start-page");

    // A template, copied and opened in the editor.
    ExperimentTemplate quickstart;
    for (const ExperimentTemplate& t : listTemplates(examplesFolder())) {
        quickstart = t.title == QLatin1String("quickstart") ? t : quickstart;
    }
    QString error;
    const QString file = copyTemplate(quickstart, work.filePath("mine"), &error);
    if (file.isEmpty()) {
        return fail(qPrintable(error));
    }
    window.editExperimentFile(file);
    auto* editor = window.findChild<ExperimentEditor*>();
    if (!editor) {
        return fail("no editor");
    }
    QSignalSpy validated(editor, &ExperimentEditor::validated);
    validated.wait(20000);
    editor->window()->resize(1280, 800);
    shoot(editor, "02-editor-form");
    editor->tabs()->setCurrentIndex(1);
    shoot(editor, "03-editor-yaml");
    // A mistake typed and run at once: the problem in the editor, the cursor on its line.
    editor->textEdit()->moveCursor(QTextCursor::End);
    editor->textEdit()->insertPlainText(QStringLiteral("num_sample: 3\n"));
    validated.clear();
    editor->checkAndRun();
    validated.wait(20000);
    shoot(editor, "03b-editor-run-with-a-mistake");
    // Closing with the unsaved mistake asks first; the tour discards it.
    {
        app_test::MessageBoxAnswer discard(QMessageBox::Discard, [](QMessageBox* box) {
            QTest::qWait(300);
            shootScreen(box, "03c-editor-unsaved-question");
        });
        editor->window()->close();
    }

    // Run it and watch: just started, the curves' axes and a note until the first result.
    window.runExperimentFile(file);
    if (waitFor([&] { return !window.data().metric().isEmpty(); }, 60000) &&
        window.data().counts().total() == window.data().counts().pending) {
        shoot(&window, "04a-monitor-just-started");
    }
    if (!waitFor(
            [&] {
                int growing = 0;
                for (const TrialRow& t : window.data().trials()) {
                    growing += t.values.size() >= 5 ? 1 : 0;
                }
                return growing >= 3;
            },
            180000)) {
        return fail("the run did not start");
    }
    showTab(window, QObject::tr("Curves"));
    shoot(&window, "04-monitor-running");
    showTab(window, QObject::tr("Nodes and GPUs"));
    shoot(&window, "05-nodes-running");
    // Quit while it runs: the question, cancelled.
    {
        app_test::MessageBoxAnswer cancel(QMessageBox::Cancel, [](QMessageBox* box) {
            QTest::qWait(300);
            shootScreen(box, "05b-quit-while-running");
        });
        window.close();
    }
    if (!waitFor([&] { return window.data().experimentStatus() == "finished"; }, 300000)) {
        return fail("the run did not finish");
    }
    auto* table = window.findChild<QTableView*>("trials");
    table->selectionModel()->clear();
    for (int row : {0, 1, 2}) {
        table->selectionModel()->select(table->model()->index(row, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    showTab(window, QObject::tr("Curves"));
    shoot(&window, "06-curves-selected");
    // The metric picker: another reported metric's curves instead of the objective's.
    if (auto* metric = window.findChild<QComboBox*>(QStringLiteral("curveMetric"))) {
        const int accuracy = metric->findData(QStringLiteral("val_accuracy"));
        if (accuracy >= 0) {
            metric->setCurrentIndex(accuracy);  // as a user picks it
            emit metric->activated(accuracy);
            QTest::qWait(800);  // read from the folder on a worker thread
            shoot(&window, "06b-curves-metric-picker");
            metric->setCurrentIndex(0);
            emit metric->activated(0);
        }
    }
    showTab(window, QObject::tr("Compare"));
    shoot(&window, "07-compare-trials");
    table->selectRow(0);  // one trial, whole: config, metrics, status history, checkpoints
    // A note on it, written as a user does (Trial > Edit note...): the box, then the note shown.
    QTimer::singleShot(300, [] {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (auto* box = qobject_cast<QInputDialog*>(w); box && box->isVisible()) {
                box->setTextValue("Loss still falling at the end.\nTry twice the iterations.");
                QTest::qWait(200);
                shootScreen(box, "07c-edit-note");
                box->accept();
            }
        }
    });
    tour::triggerMenuAction(window, "editTrialNote");
    waitFor([&] { return !window.data().trials()[0].note.isEmpty(); }, 10000);
    showTab(window, QObject::tr("Trial"));
    shoot(&window, "07b-trial-detail");
    // View > Messages...: what the status bar said so far, whole.
    tour::triggerMenuAction(window, "Copy best config as YAML");
    tour::triggerMenuAction(window, "showMessages");
    if (auto* messages = window.findChild<QDialog*>("messageHistoryDialog")) {
        QTest::qWait(300);
        shootScreen(messages, "07d-messages");
        messages->close();
    }
    table->selectionModel()->clear();
    for (const char* tab : {"Parallel coordinates", "Parameter vs metric", "Importance", "Log"}) {
        showTab(window, QString::fromLatin1(tab));
        shoot(&window,
              QStringLiteral("08-%1").arg(QString::fromLatin1(tab).toLower().replace(' ', '-')));
    }
    showTab(window, QObject::tr("Curves"));
    window.saveChart(QDir(tour::outputFolder).filePath("09-curves.svg"), &error);

    // A second experiment, then the two compared.
    ExperimentTemplate asha;
    for (const ExperimentTemplate& t : listTemplates(examplesFolder())) {
        asha = t.title == QLatin1String("asha") ? t : asha;
    }
    window.runExperimentFile(copyTemplate(asha, work.filePath("mine"), &error));
    if (!waitFor(
            [&] {
                return window.currentExperiment() == "asha" &&
                       window.data().experimentStatus() == "finished";
            },
            300000)) {
        return fail("asha did not finish");
    }
    shoot(&window, "10-asha-finished");
    // The study plots of the asha run, watched live: its early stops on the timeline.
    shootStudyPlots(window, "10p-asha");
    shootBrushed(window, "10e-asha-parallel-brushed");
    shootManagement(window, "10g-asha");
    window.compareExperiments();
    auto* comparison = window.findChild<ExperimentsCompare*>();
    if (comparison) {
        QSignalSpy compared(comparison, &ExperimentsCompare::compared);
        compared.wait(20000);
        comparison->findChild<QComboBox*>("second")->setCurrentIndex(
            comparison->findChild<QComboBox*>("second")->findText("quickstart"));
        compared.wait(20000);
        shoot(comparison, "11-compare-experiments");
        comparison->close();
    }

    // The cluster editor, on a lab's two-node cluster file.
    QDir().mkpath(work.filePath("keys"));
    QFile key(work.filePath("keys/id_ed25519"));
    key.open(QIODevice::WriteOnly);
    key.close();
    QFile cluster(work.filePath("lab.yaml"));
    cluster.open(QIODevice::WriteOnly);
    cluster.write(
        "# The lab's two GPU boxes, reached over SSH.\n"
        "cluster_name: lab\n"
        "provider:\n"
        "  type: ssh\n"
        "  head_ip: 127.0.0.1\n"
        "  worker_ips: [\"127.0.0.1:2222\"]\n"
        "auth:\n"
        "  ssh_user: researcher\n"
        "  ssh_private_key: keys/id_ed25519\n"
        "setup_commands:\n"
        "  - python3 -m pip --version  # the trainables need pip's packages\n"
        "file_mounts:\n"
        "  /data/digits: ./data\n"
        "storage: copy\n");
    cluster.close();
    QDir().mkpath(work.filePath("data"));
    if (QWidget* editor = openClusterEditor(&window, cluster.fileName(), {})) {
        editor->window()->resize(1280, 800);
        shoot(editor, "15-cluster-editor");
        editor->window()->close();
    }

    // The GPU view, with a stand-in NVIDIA driver (the fake libnvidia-ml the worker tests build:
    // two cards whose readings come from a file) under a second engine, since this machine may
    // have no GPU. Four trials at gpu: 0.5 share the two cards through MPS, whose control program
    // is a stand-in too.
    QFile state(work.filePath("fake-nvml.state"));
    state.open(QIODevice::WriteOnly);
    state.write(
        "gpu uuid=GPU-0a name=Fake_H200 memory_total_mb=143771 memory_used_mb=35120 "
        "utilization=87 temperature=61 power_mw=412000\n"
        "gpu uuid=GPU-1b name=Fake_H200 memory_total_mb=143771 memory_used_mb=20480 "
        "utilization=64 temperature=55 power_mw=318000\n");
    state.close();
    const QString controlBin = worker_test::writeFakeMpsControl(work.path());
    QProcess gpuEngine;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("LD_LIBRARY_PATH", QStringLiteral(TUNEDECK_BUILD_DIR "/tunedeck-fake-nvml"));
    environment.insert("TUNEDECK_FAKE_NVML_STATE", state.fileName());
    environment.insert("PATH", controlBin + ":" + environment.value("PATH"));
    gpuEngine.setProcessEnvironment(environment);
    const QString gpuSocket = work.filePath("gpu-engine.sock");
    gpuEngine.start(
        QStringLiteral(TUNEDECK_BIN_DIR "/tunedeck-engine"),
        {"serve", "--listen", "unix:" + gpuSocket, "--results", work.filePath("gpu-results")});
    if (waitFor([&] { return QFile::exists(gpuSocket); }, 20000)) {
        MainWindow gpus;
        gpus.resize(1280, 800);
        gpus.show();
        gpus.attachLocal(gpuSocket, {});
        waitFor([&] { return gpus.client().isReady(); }, 20000);
        QFile source(file);
        source.open(QIODevice::ReadOnly);
        const QString shared = file.section('/', 0, -2) + "/gpu-shared.yaml";
        QFile copy(shared);
        copy.open(QIODevice::WriteOnly);
        copy.write(QString::fromUtf8(source.readAll())
                       .replace("name: quickstart", "name: gpu-shared")
                       .replace("num_samples: 12", "num_samples: 4")
                       .replace("max_concurrent_trials: 2",
                                "max_concurrent_trials: 4\nresources_per_trial: {cpu: 0.5, gpu: "
                                "0.5}\ngpu_sample_s: 0.5\ngpu_sharing: mps")
                       .toUtf8());
        copy.close();
        gpus.runExperimentFile(shared);
        waitFor(
            [&] { return gpus.usage().cards().size() == 2 && gpus.data().counts().running > 1; },
            60000);
        QTest::qWait(3000);  // a few samples on the charts
        showTab(gpus, QObject::tr("Nodes and GPUs"));
        shoot(&gpus, "16-gpus-fake-driver");
        waitFor([&] { return gpus.data().experimentStatus() == "finished"; }, 120000);
        // A gang of two ranks, one per card: the Trial tab's Ranks row, in German.
        QFile gang(file.section('/', 0, -2) + "/gang.yaml");
        gang.open(QIODevice::WriteOnly);
        gang.write(
            "name: gang\n"
            "trainable: {command: [python3, " TUNEDECK_SOURCE_DIR
            "/tests/integration/trials/gang_rank.py]}\n"
            "search_space:\n  iterations: 20\n"
            "resources_per_trial: {cpu: 0.5, gpu: 1, workers: 2}\n"
            "metric: score\nmode: max\ngpu_sample_s: 0.2\n");
        gang.close();
        gpus.runExperimentFile(gang.fileName());
        auto* gangTable = gpus.findChild<QTableView*>("trials");
        if (waitFor(
                [&] {
                    return gpus.currentExperiment() == "gang" && gpus.data().counts().running > 0;
                },
                60000)) {
            QTest::qWait(1500);  // a few usage samples
            gangTable->selectRow(0);
            gpus.tabs()->setCurrentWidget(
                gpus.findChild<QWidget*>(QStringLiteral("trialDetail"))->parentWidget());
            shoot(&gpus, "16b-gang-trial-ranks");
        }
        waitFor([&] { return gpus.data().experimentStatus() == "finished"; }, 60000);
    }
    ::kill(pid_t(gpuEngine.processId()), SIGTERM);
    gpuEngine.waitForFinished(30000);

    // The asha run in German: its early stops, the "best trial by" picker and the scatter's
    // scope.
    applyAppearance({Theme::Light, QStringLiteral("de")});
    {
        MainWindow germanAsha;
        germanAsha.resize(1280, 800);
        germanAsha.show();
        germanAsha.openFolder(work.filePath("results/asha"));
        waitFor([&] { return germanAsha.data().trials().size() == 16; }, 20000);
        QTest::qWait(300);
        shoot(&germanAsha, "10b-asha-german");
        for (int i = 0; i < germanAsha.tabs()->count(); ++i) {
            if (germanAsha.tabs()->widget(i)->inherits("tunedeck::app::ScatterView")) {
                germanAsha.tabs()->setCurrentIndex(i);
            }
        }
        QTest::qWait(500);
        shoot(&germanAsha, "10c-asha-scatter-german");
        // One trial ASHA stopped, whole: its status history with the scheduler's reason.
        if (auto* trials = germanAsha.findChild<QTableView*>("trials")) {
            trials->selectRow(0);
            germanAsha.tabs()->setCurrentWidget(
                germanAsha.findChild<QWidget*>(QStringLiteral("trialDetail"))->parentWidget());
            shoot(&germanAsha, "10i-asha-trial-detail-german");
            trials->clearSelection();
        }
        shootStudyPlots(germanAsha, "10d-asha-german");
        shootBrushed(germanAsha, "10f-asha-parallel-brushed-german");
        shootManagement(germanAsha, "10h-asha-german");
    }

    // Dark, then German.
    applyAppearance({Theme::Dark, QStringLiteral("en")});
    shoot(&window, "12-monitor-dark");
    applyAppearance({Theme::Light, QStringLiteral("de")});
    {
        MainWindow german;
        german.resize(1280, 800);
        german.show();
        german.openFolder(work.filePath("results/quickstart"));
        waitFor([&] { return german.data().trials().size() == 12; }, 20000);
        shoot(&german, "13-monitor-german");
        // Its log, with no trial selected: what the tab is for, not a blank page.
        german.tabs()->setCurrentWidget(german.findChild<QWidget*>(QStringLiteral("log")));
        shoot(&german, "13a-log-german");
        german.tabs()->setCurrentIndex(0);
        // The editor's new words in German: a run refused for a mistake, the unsaved question.
        german.attachLocal(socket, {});
        waitFor([&] { return german.client().isReady(); }, 20000);
        german.editExperimentFile(file);
        if (auto* editorDe = german.findChild<ExperimentEditor*>()) {
            QSignalSpy checked(editorDe, &ExperimentEditor::validated);
            checked.wait(20000);
            editorDe->window()->resize(1280, 800);
            editorDe->tabs()->setCurrentIndex(1);
            editorDe->textEdit()->moveCursor(QTextCursor::End);
            editorDe->textEdit()->insertPlainText(QStringLiteral("num_sample: 3\n"));
            checked.clear();
            editorDe->checkAndRun();
            checked.wait(20000);
            shoot(editorDe, "13b-editor-run-with-a-mistake-german");
            app_test::MessageBoxAnswer discard(QMessageBox::Discard, [](QMessageBox* box) {
                QTest::qWait(300);
                shootScreen(box, "13c-editor-unsaved-question-german");
            });
            editorDe->window()->close();
        }
        // The question on quitting while it runs, in German; then the run is paused.
        german.runExperimentFile(file);
        if (!waitFor([&] { return german.data().counts().running > 0; }, 60000)) {
            qWarning("no German quit question: %s shows %d running, status %s",
                     qPrintable(german.currentExperiment()), german.data().counts().running,
                     qPrintable(german.data().experimentStatus()));
        } else {
            QTest::qWait(300);  // the list's answer about it
            app_test::MessageBoxAnswer cancel(QMessageBox::Cancel, [](QMessageBox* box) {
                QTest::qWait(300);
                shootScreen(box, "13d-quit-while-running-german");
            });
            german.close();
            // The list's statuses, Settings' buttons and the restart question in German
            // (issue 34.13), answered No: this window goes on with the tour.
            shoot(&german, "13e-running-german");
            QTimer settings;
            settings.setInterval(50);
            QObject::connect(&settings, &QTimer::timeout, &german, [&settings] {
                auto* dialog = qobject_cast<SettingsDialog*>(QApplication::activeModalWidget());
                if (!dialog) {
                    return;
                }
                settings.stop();
                shootScreen(dialog, "13f-settings-german");
                auto* language = dialog->findChild<QComboBox*>(QStringLiteral("language"));
                language->setCurrentIndex(language->findData(QStringLiteral("de")));
                dialog->accept();
            });
            settings.start();
            app_test::MessageBoxAnswer no(QMessageBox::No, [](QMessageBox* box) {
                QTest::qWait(300);
                shootScreen(box, "13g-restart-question-german");
            });
            german.showSettings();
            saveAppearance({});
        }
        german.orderExperiment(MainWindow::ExperimentOrder::Pause);
    }
    applyAppearance({Theme::Light, QStringLiteral("en")});
    tour::shootBestAndStops(socket, work);
    tour::shootOverSsh(work, file);
    applyAppearance({Theme::Light, QStringLiteral("zh_CN")});
    {
        MainWindow chinese;
        chinese.resize(1280, 800);
        chinese.show();
        shoot(&chinese, "14-start-page-chinese");
    }
    stopEngine();
    return 0;
}
