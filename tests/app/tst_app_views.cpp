// The window's smaller views and the app's settings, without an engine: templates copied with
// what they use, the recent lists, node and GPU usage from scripted `node_usage` events, the
// comparison of two experiments' best trials, the palettes, and the translations (complete, and
// switched by the settings).
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "app_test_support.h"
#include "charts/node_usage_view.h"
#include "message_box_answer.h"
#include "models/node_usage.h"
#include "models/trial_table_model.h"
#include "scripted_events.h"
#include "tunedeck/version.h"
#include "views/appearance.h"
#include "views/experiment_list.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"
#include "views/trial_column_widths.h"

using namespace tunedeck::app;

namespace {

tunedeck::events::Event usageEvent(double time, const QString& node, double cpu,
                                   const QJsonArray& gpus) {
    return scripted::decoded(QJsonObject{{"v", 1},
                                         {"seq", qint64(time)},
                                         {"time", time},
                                         {"type", "node_usage"},
                                         {"node", node},
                                         {"cpu_percent", cpu},
                                         {"memory_used_mb", 4096},
                                         {"memory_total_mb", 16384},
                                         {"gpus", gpus}});
}

QJsonObject gpu(int index, double utilization, const QStringList& trials, bool lost = false) {
    return {{"index", index},
            {"uuid", QStringLiteral("GPU-%1").arg(index)},
            {"name", "Fake H200"},
            {"utilization_percent", utilization},
            {"memory_used_mb", 1000 * (index + 1)},
            {"memory_total_mb", 80000},
            {"temperature_c", 40 + index},
            {"power_w", 100.5},
            {"trials", QJsonArray::fromStringList(trials)},
            {"lost", lost}};
}

TrialRow trial(const QString& id, double best, const QJsonObject& config) {
    TrialRow row;
    row.id = id;
    row.config = config;
    row.flatConfig = ExperimentData::flatten(config);
    row.best = best;
    row.iteration = 3;
    row.iterations = {1, 2, 3};
    row.values = {best / 3, best / 2, best};
    return row;
}

QString examples() {
    return QStringLiteral(TUNEDECK_SOURCE_DIR "/resources/examples");
}

// How many messages a .ts file holds.
int messageCount(const QString& tsFile) {
    QFile file(tsFile);
    return file.open(QIODevice::ReadOnly) ? int(file.readAll().count("<message")) : -1;
}

}  // namespace

class TestAppViews : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void templatesAreListedWithTheirDescriptions();
    void aTemplateIsCopiedWithTheFoldersItUses();
    void recentListsAreNewestFirstAndBounded();
    void nodeUsageFollowsTheSamples();
    void nodeUsageViewShowsWhichTrialsSitOnWhichCard();
    void twoExperimentsBestTrialsAreDiffed();
    void darkAndLightPalettes();
    void everyStringIsTranslated();
    void theLanguageIsSwitchedBySettings();
    void theSystemLanguageIsNamedAndTheLogSaysWhenEmpty();
    void theGermanTabsFitAt1280x800();
    void theTrialTableShowsEightRowsAt1280x800();
    void deletingAFolderAsksFirstInTheUsersLanguage();
    void theHelpMenuOpensTheDocsAndNamesTheVersion();
    void trialColumnsStayBoundedAndKeepTheUsersWidths();
    void theRestartQuestionSettingsAndListSpeakGerman();
};

void TestAppViews::initTestCase() {
    // QSettings and the home folder of the test, not the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("tunedeck-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_app_views"));
    QSettings().clear();
}

void TestAppViews::templatesAreListedWithTheirDescriptions() {
    const QList<ExperimentTemplate> templates = listTemplates(examples());
    QStringList titles;
    for (const ExperimentTemplate& t : templates) {
        titles << t.title;
        QVERIFY2(!t.description.isEmpty(), qPrintable(t.title + " has no description"));
        QVERIFY2(!t.description.contains("Run it with"), qPrintable(t.description));
    }
    QVERIFY2(titles.contains("quickstart") && titles.contains("asha") &&
                 titles.contains("branin / tpe") && titles.contains("hyperband / bohb"),
             qPrintable(titles.join(", ")));
    QVERIFY(listTemplates(QString()).isEmpty());
    // A new user reads the list: one paragraph each (the cluster templates' comments run to 15
    // lines), and a cluster file is said to be one and opens in the cluster editor, not as an
    // experiment whose every key is unknown.
    for (const ExperimentTemplate& t : templates) {
        QVERIFY2(t.description.size() <= 300, qPrintable(t.title + ": " + t.description));
        QCOMPARE(t.cluster, t.title.startsWith(QLatin1String("clusters /")));
        QVERIFY(t.comment.startsWith(t.description.chopped(1)));
    }
    QTemporaryDir home;
    QString error;
    ExperimentTemplate aws;
    for (const ExperimentTemplate& t : templates) {
        aws = t.title == QLatin1String("clusters / aws") ? t : aws;
    }
    const QString copy = copyTemplate(aws, home.path(), &error);
    QVERIFY2(!copy.isEmpty(), qPrintable(error));
    QSettings().remove("recent");
    rememberRecent(RecentKind::File, copy);
    StartPage page;
    auto* list = page.findChild<QListWidget*>("templates");
    QStringList shown;
    for (int i = 0; i < list->count(); ++i) {
        shown << list->item(i)->text().section('\n', 0, 0);
    }
    QVERIFY2(shown.contains("clusters / aws (cluster file)"), qPrintable(shown.join(", ")));
    // Each title is bold over its plain description (the start page's screenshot: all plain).
    page.resize(1000, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const QRect first = list->visualItemRect(list->item(0));
    QVERIFY(first.height() >= 2 * list->fontMetrics().height());  // the description under it
    const int ink =
        app_test::inkIn(list->viewport()->grab().toImage(),
                        first.adjusted(0, 0, 0, list->fontMetrics().height() - first.height()));
    QFont bold = list->font();
    bold.setBold(true);
    QVERIFY2(ink > (app_test::inkOf(shown.first(), list->font()) +
                    app_test::inkOf(shown.first(), bold)) /
                       2,
             qPrintable(QStringLiteral("%1 dark pixels on the title's line").arg(ink)));
    QSignalSpy cluster(&page, &StartPage::editClusterFile);
    QSignalSpy experiment(&page, &StartPage::editFile);
    auto* recent = page.findChild<QListWidget*>("recent");
    emit recent->itemActivated(recent->item(0));
    QCOMPARE(cluster.size(), 1);
    QCOMPARE(experiment.size(), 0);
    QSettings().remove("recent");
}

void TestAppViews::aTemplateIsCopiedWithTheFoldersItUses() {
    QTemporaryDir target;
    ExperimentTemplate asha;
    for (const ExperimentTemplate& t : listTemplates(examples())) {
        asha = t.title == QLatin1String("asha") ? t : asha;
    }
    QString error;
    const QString copy = copyTemplate(asha, target.path(), &error);
    QVERIFY2(!copy.isEmpty(), qPrintable(error));
    QCOMPARE(copy, target.path() + "/asha/experiment.yaml");
    // asha runs ../quickstart/train.py: the copy must too.
    QVERIFY(QFile::exists(target.path() + "/quickstart/train.py"));
    QVERIFY(QFileInfo(copy).isWritable());
    // A second copy does not overwrite the first one, which the user may have edited.
    QFile edited(copy);
    QVERIFY(edited.open(QIODevice::Append));
    edited.write("# mine\n");
    edited.close();
    const QString second = copyTemplate(asha, target.path(), &error);
    QCOMPARE(second, target.path() + "/asha-2/experiment.yaml");
    QFile first(copy);
    QVERIFY(first.open(QIODevice::ReadOnly));
    QVERIFY(first.readAll().endsWith("# mine\n"));
}

void TestAppViews::recentListsAreNewestFirstAndBounded() {
    QTemporaryDir dir;
    QStringList files;
    for (int i = 0; i < 12; ++i) {
        files << dir.filePath(QStringLiteral("e%1.yaml").arg(i));
        QFile f(files.last());
        QVERIFY(f.open(QIODevice::WriteOnly));
        rememberRecent(RecentKind::File, files.last());
    }
    rememberRecent(RecentKind::File, files[5]);  // again: moves to the top, not twice
    const QStringList recent = recentItems(RecentKind::File);
    QCOMPARE(recent.size(), 10);
    QCOMPARE(recent.first(), files[5]);
    QCOMPARE(recent.count(files[5]), 1);
    QCOMPARE(recent.at(1), files[11]);
    QFile::remove(files[11]);  // gone from disk: not offered any more
    QVERIFY(!recentItems(RecentKind::File).contains(files[11]));
    QVERIFY(recentItems(RecentKind::Folder).isEmpty());
}

void TestAppViews::nodeUsageFollowsTheSamples() {
    NodeUsageModel usage;
    QVERIFY(!usage.apply(scripted::result("t00000", 1, 0.5)));
    QVERIFY(usage.empty());
    for (int i = 0; i < 5; ++i) {
        QVERIFY(usage.apply(usageEvent(1000 + 2 * i, "node-a", 10.0 * i,
                                       {gpu(0, 50 + i, {"t00000", "t00001"}), gpu(1, 0, {})})));
    }
    QVERIFY(usage.apply(usageEvent(1004, "node-a", 99, {})));  // replayed: no point added
    QCOMPARE(usage.nodes().size(), std::size_t(1));
    const NodeUsage& node = usage.nodes().at("node-a");
    QCOMPARE(node.cpuSeries.size(), std::size_t(5));
    QCOMPARE(node.memorySeries.back().value, 25.0);  // 4096 of 16384 MB
    const auto cards = usage.cards();
    QCOMPARE(cards.size(), std::size_t(2));
    QCOMPARE(cards[0]->utilization, 54.0);
    QCOMPARE(cards[0]->trials, QStringList({"t00000", "t00001"}));
    QCOMPARE(usage.firstTime(), 1000.0);
    QCOMPARE(usage.lastTime(), 1008.0);
    // Bounded: an hour of samples at most per series.
    for (std::size_t i = 0; i < NodeUsageModel::kMaxPoints + 50; ++i) {
        usage.apply(usageEvent(2000 + double(i), "node-a", 1, {}));
    }
    QCOMPARE(usage.nodes().at("node-a").cpuSeries.size(), NodeUsageModel::kMaxPoints);
}

void TestAppViews::nodeUsageViewShowsWhichTrialsSitOnWhichCard() {
    NodeUsageModel usage;
    NodeUsageView view(&usage);
    view.resize(900, 700);
    view.show();
    usage.apply(
        usageEvent(1000, "gpu-box", 30, {gpu(0, 80, {"t00002", "t00003"}), gpu(1, 0, {}, true)}));
    usage.apply(usageEvent(1002, "cpu-box", 70, {}));
    // The engine's word on how gpu-box shares its cards (gpu_sharing: mps), and on another node
    // where MPS did not start.
    QVERIFY(usage.apply(scripted::decoded(QJsonObject{{"type", "node"},
                                                      {"node", "gpu-box"},
                                                      {"state", "gpu_sharing"},
                                                      {"details", QJsonObject{{"mode", "mps"}}}})));
    usage.apply(usageEvent(1002, "old-box", 10, {gpu(0, 5, {"t00004"})}));
    usage.apply(scripted::decoded(QJsonObject{
        {"type", "node"},
        {"node", "old-box"},
        {"state", "gpu_sharing"},
        {"details", QJsonObject{{"mode", "time_slicing"}, {"reason", "not installed"}}}}));
    view.refresh();
    QTRY_COMPARE(view.table()->rowCount(), 6);  // three nodes' CPU rows, three cards
    QStringList rows;
    for (int r = 0; r < view.table()->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < view.table()->columnCount(); ++c) {
            cells << (view.table()->item(r, c) ? view.table()->item(r, c)->text() : QString());
        }
        rows << cells.join('|');
    }
    QVERIFY2(rows.contains(
                 "gpu-box|GPU 0: Fake H200 (MPS)|80 %|1000 / 80000 MB|40 °C|101 W|t00002, t00003"),
             qPrintable(rows.join('\n')));
    QVERIFY2(rows.contains("gpu-box|GPU 1: Fake H200 (MPS)|lost|2000 / 80000 MB|41 °C|101 W|"),
             qPrintable(rows.join('\n')));
    QVERIFY2(rows.contains("old-box|GPU 0: Fake H200 (time slicing: MPS did not start)|5 %|1000 / "
                           "80000 MB|40 °C|101 W|t00004"),
             qPrintable(rows.join('\n')));
    QVERIFY2(rows.contains("cpu-box|CPU|70 %|4096 / 16384 MB|||"), qPrintable(rows.join('\n')));
    // One line per node's CPU and per card on each chart.
    QCOMPARE(view.utilizationChart()->chart()->series().size(), 6);
    QCOMPARE(view.memoryChart()->chart()->series().size(), 6);
}

void TestAppViews::twoExperimentsBestTrialsAreDiffed() {
    History first;
    first.name = "first";
    first.metric = "loss";
    first.minimize = true;
    first.trials = {trial("t00000", 0.5, {{"lr", 0.1}, {"model", QJsonObject{{"depth", 3}}}}),
                    trial("t00001", 0.2, {{"lr", 0.01}, {"model", QJsonObject{{"depth", 3}}}})};
    History second;
    second.name = "second";
    second.metric = "loss";
    second.minimize = true;
    second.trials = {trial("t00000", 0.3,
                           {{"lr", 0.01}, {"model", QJsonObject{{"depth", 5}}}, {"dropout", 0.1}}),
                     trial("t00001", kNoValue, {{"lr", 1.0}})};
    QCOMPARE(bestTrialOf(first)->id, QStringLiteral("t00001"));   // min: 0.2 beats 0.5
    QCOMPARE(bestTrialOf(second)->id, QStringLiteral("t00000"));  // no value is never best
    const QList<ComparedRow> rows = bestTrialRows(first, second);
    QStringList lines;
    for (const ComparedRow& row : rows) {
        lines << QStringLiteral("%1=%2|%3%4")
                     .arg(row.key, row.first, row.second, row.differs() ? " *" : "");
    }
    QCOMPARE(lines, QStringList({"trial=t00001|t00000 *", "metric=loss (min)|loss (min)",
                                 "value, last result=0.2|0.3 *", "iterations=3|3", "dropout=|0.1 *",
                                 "lr=0.01|0.01", "model.depth=3|5 *"}));
    History empty;
    QVERIFY(!bestTrialOf(empty));
    QCOMPARE(bestTrialRows(empty, second).first().first, QString());
}

void TestAppViews::darkAndLightPalettes() {
    applyAppearance({Theme::Dark, QStringLiteral("en")});
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
    QVERIFY(QApplication::palette().color(QPalette::WindowText).lightness() > 180);
    applyAppearance({Theme::Light, QStringLiteral("en")});
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 180);
    // The choice is kept for the next start.
    saveAppearance({Theme::Dark, QStringLiteral("de")});
    QCOMPARE(int(savedAppearance().theme), int(Theme::Dark));
    QCOMPARE(savedAppearance().language, QStringLiteral("de"));
    saveAppearance({});
}

void TestAppViews::everyStringIsTranslated() {
    // lupdate over the app's sources (and core's algorithm catalogue, whose texts the app shows
    // translated) into copies of the .ts files, as `update_translations` runs it: a string added
    // without its German and Chinese translations shows up as unfinished, and a translation that
    // lupdate no longer finds in the sources is dropped.
    const QString lupdate = QLibraryInfo::path(QLibraryInfo::BinariesPath) + "/lupdate";
    if (!QFileInfo(lupdate).isExecutable()) {
        QSKIP("lupdate is not installed (Debian's qt6-l10n-tools)");
    }
    QTemporaryDir dir;
    for (const QString language : {"de", "zh_CN"}) {
        const QString ts = dir.filePath("tunedeck_" + language + ".ts");
        QVERIFY(QFile::copy(
            QStringLiteral(TUNEDECK_SOURCE_DIR "/translations/tunedeck_%1.ts").arg(language), ts));
        QFile::setPermissions(ts, QFile::ReadOwner | QFile::WriteOwner);
        QProcess run;
        const int committed = messageCount(ts);
        run.start(
            lupdate,
            {"-no-obsolete", "-locations", "none", "-silent",
             QStringLiteral(TUNEDECK_SOURCE_DIR "/app"),
             QStringLiteral(TUNEDECK_SOURCE_DIR "/engine/core/algorithm_catalog.cpp"), "-ts", ts});
        QVERIFY(run.waitForFinished(120000));
        QCOMPARE(run.exitCode(), 0);
        QFile file(ts);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.count("<message") > 250);
        QVERIFY2(text.count("<message") >= committed,
                 qPrintable(QStringLiteral("lupdate dropped %1 translated strings of %2")
                                .arg(committed - text.count("<message"))
                                .arg(language)));
        QStringList unfinished;
        for (const QString& message : text.split("</message>")) {
            if (message.contains("type=\"unfinished\"")) {
                unfinished << message.section("<source>", 1).section("</source>", 0, 0);
            }
        }
        QVERIFY2(unfinished.isEmpty(),
                 qPrintable(QStringLiteral("%1 untranslated in %2: %3")
                                .arg(unfinished.size())
                                .arg(language, unfinished.mid(0, 10).join(" | "))));
    }
}

void TestAppViews::theLanguageIsSwitchedBySettings() {
    QCOMPARE(availableLanguages(), QStringList({"en", "de", "zh_CN"}));  // each once
    QCOMPARE(languageName("en"), QStringLiteral("English"));
    QCOMPARE(applyAppearance({Theme::System, QStringLiteral("de")}), QStringLiteral("de"));
    {
        MainWindow window;
        QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&Datei"));
    }
    {
        // A trial's status in German too, in the table and in the status filter (issue 18.8).
        ExperimentData data;
        TrialRow done = trial("t00000", 0.5, {{"lr", 0.1}});
        done.status = "TERMINATED";
        TrialRow failed = trial("t00001", 0.5, {{"lr", 0.2}});
        failed.status = "ERROR";
        data.load({done, failed}, {}, "finished", 0);
        TrialTableModel model(&data);
        model.reset();
        QCOMPARE(model.index(0, TrialTableModel::Status).data().toString(),
                 QStringLiteral("BEENDET"));
        QCOMPARE(model.index(1, TrialTableModel::Status).data().toString(),
                 QStringLiteral("FEHLER"));
        MainWindow window;
        QStringList statuses;
        auto* filter = window.findChild<QComboBox*>("statusFilter");
        QVERIFY(filter);
        for (int i = 0; i < filter->count(); ++i) {
            statuses << filter->itemText(i);
        }
        QVERIFY2(statuses.contains("BEENDET") && !statuses.contains("TERMINATED"),
                 qPrintable(statuses.join(", ")));
    }
    QCOMPARE(applyAppearance({Theme::System, QStringLiteral("zh_CN")}), QStringLiteral("zh_CN"));
    {
        MainWindow window;
        QVERIFY2(window.menuBar()->actions().first()->text().contains(QStringLiteral("文件")),
                 qPrintable(window.menuBar()->actions().first()->text()));
    }
    // A language the app does not speak falls back to English.
    QCOMPARE(applyAppearance({Theme::System, QStringLiteral("fr")}), QStringLiteral("en"));
    MainWindow window;
    QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&File"));
}

// Issue 18: in German at 1280x800 the monitor's tab strip was about 60 px too wide, so "Log"
// (Protokoll) sat behind the scroll arrows. Every tab shows whole there, none elided.
void TestAppViews::theGermanTabsFitAt1280x800() {
    QCOMPARE(applyAppearance({Theme::Light, QStringLiteral("de")}), QStringLiteral("de"));
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    qobject_cast<QStackedWidget*>(window.centralWidget())->setCurrentIndex(1);  // the monitor
    QTest::qWait(50);
    QTabBar* bar = window.tabs()->tabBar();
    QVERIFY2(bar->sizeHint().width() <= window.tabs()->width(),
             qPrintable(QStringLiteral("the tabs need %1 px of %2")
                            .arg(bar->sizeHint().width())
                            .arg(window.tabs()->width())));
    applyAppearance({Theme::System, QStringLiteral("en")});
}

// Issue 18 (the tour at 1280x800): rows of the style's default height left six trials in view
// above the curves.
void TestAppViews::theTrialTableShowsEightRowsAt1280x800() {
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    qobject_cast<QStackedWidget*>(window.centralWidget())->setCurrentIndex(1);  // the monitor
    QTest::qWait(50);
    auto* table = window.findChild<QTableView*>("trials");
    const int rowHeight = table->verticalHeader()->defaultSectionSize();
    QVERIFY2(
        table->viewport()->height() / rowHeight >= 8,
        qPrintable(
            QStringLiteral("%1 px rows in %2 px").arg(rowHeight).arg(table->viewport()->height())));
}

// Experiment > Delete experiment folder asks first, in German all through (Qt's own button
// texts are not installed everywhere: the tour's German screenshot showed "Cancel"), and keeps
// the folder when the answer is Abbrechen.
void TestAppViews::deletingAFolderAsksFirstInTheUsersLanguage() {
    QCOMPARE(applyAppearance({Theme::Light, QStringLiteral("de")}), QStringLiteral("de"));
    QTemporaryDir dir;
    const QString folder = dir.filePath("asha");
    QVERIFY(QDir().mkpath(folder));
    MainWindow window;
    window.openFolder(folder);  // read-only; its history does not read, the folder is shown
    {
        app_test::MessageBoxAnswer cancel(QMessageBox::Cancel);
        window.deleteShownExperiment();
        QVERIFY(cancel.answered());
        QVERIFY2(cancel.buttons().contains("Abbrechen") && cancel.buttons().contains("Löschen"),
                 qPrintable(cancel.buttons().join(", ")));
        QVERIFY2(cancel.seen().contains(folder), qPrintable(cancel.seen()));
    }
    QVERIFY(QFileInfo::exists(folder));
    applyAppearance({Theme::System, QStringLiteral("en")});
}

// Issue 18.8: Settings named the system language "System language ()" where the system's locale
// is C (LANG=C.UTF-8, as on many servers and in CI); the Log tab was blank with no word.
void TestAppViews::theSystemLanguageIsNamedAndTheLogSaysWhenEmpty() {
    applyAppearance({Theme::System, QStringLiteral("en")});
    SettingsDialog settings;
    auto* language = settings.findChild<QComboBox*>("language");
    QVERIFY(language);
    const QString system = language->itemText(0);
    QVERIFY2(system.startsWith("System language (") && !system.contains("()"), qPrintable(system));
    MainWindow window;
    auto* log = window.findChild<QPlainTextEdit*>("log");
    QVERIFY(log);
    QVERIFY(log->toPlainText().isEmpty());
    QVERIFY2(log->placeholderText().contains("log", Qt::CaseInsensitive),
             qPrintable(log->placeholderText()));
}

// Catches what QDesktopServices::openUrl would hand to the desktop's viewer.
class UrlCatcher : public QObject {
    Q_OBJECT
  public:
    QList<QUrl> urls;
  public slots:
    void open(const QUrl& url) { urls << url; }
};

// Issue 18: a Help menu with the docs and About.
void TestAppViews::theHelpMenuOpensTheDocsAndNamesTheVersion() {
    applyAppearance({Theme::System, QStringLiteral("en")});
    MainWindow window;
    QMenu* help = nullptr;
    for (QAction* action : window.menuBar()->actions()) {
        help = action->text() == QStringLiteral("&Help") ? action->menu() : help;
    }
    QVERIFY(help);
    QStringList texts;
    for (QAction* action : help->actions()) {
        texts << action->text();
    }
    QCOMPARE(texts, QStringList({"&Documentation", "&About Tunedeck"}));
    // Documentation: the README (the build tree's here, installed beside the app elsewhere).
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    help->actions().at(0)->trigger();
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QCOMPARE(catcher.urls.size(), 1);
    QFile readme(catcher.urls.first().toLocalFile());
    QVERIFY2(readme.fileName().endsWith("README.md") && readme.open(QIODevice::ReadOnly),
             qPrintable(readme.fileName()));
    QVERIFY(readme.readAll().contains("Tunedeck"));
    // About: the version and the commit, as tunedeck --version prints them.
    help->actions().at(1)->trigger();
    auto* about = window.findChild<QMessageBox*>("aboutTunedeck");
    QVERIFY(about);
    QVERIFY2(about->text().contains(QStringLiteral("Tunedeck " TUNEDECK_VERSION)),
             qPrintable(about->text()));
    QVERIFY2(about->informativeText().contains(QStringLiteral(TUNEDECK_GIT_COMMIT)),
             qPrintable(about->informativeText()));
    about->close();
}

QTEST_MAIN(TestAppViews)
// Issue 18: the trial table's columns only ever widened. A long value made its column as wide as
// the text, a column the user narrowed grew back at the next frame, and another experiment kept
// the widths the last one had needed.
void TestAppViews::trialColumnsStayBoundedAndKeepTheUsersWidths() {
    QStandardItemModel model(3, 3);
    model.setHorizontalHeaderLabels({"Trial", "Status", "data_dir"});
    for (int row = 0; row < 3; ++row) {
        model.setItem(row, 0, new QStandardItem(QStringLiteral("t0000%1").arg(row)));
        model.setItem(row, 1, new QStandardItem("RUNNING"));
        model.setItem(row, 2, new QStandardItem("/data"));
    }
    QTableView table;
    table.setModel(&model);
    table.resize(1000, 300);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    auto* widths = new TrialColumnWidths(&table);
    widths->refit();
    const int running = table.columnWidth(1);
    QVERIFY(widths->cap() < 400);
    // A long value widens its column up to the cap; beyond, the text is elided.
    model.item(0, 2)->setText("/home/researcher/datasets/imagenet/train/shards/" +
                              QString(80, 'x'));
    widths->widen();
    QCOMPARE(table.columnWidth(2), widths->cap());
    // A longer status widens its column, which then stays as wide: no jumping back and forth.
    model.item(1, 1)->setText("stopped by ASHA at 6");
    widths->widen();
    const int stopped = table.columnWidth(1);
    QVERIFY(stopped > running);
    model.item(1, 1)->setText("TERMINATED");
    widths->widen();
    QCOMPARE(table.columnWidth(1), stopped);
    // The user narrows Status: wider values no longer widen it.
    table.horizontalHeader()->resizeSection(1, 40);
    model.item(2, 1)->setText("stopped by HyperBand at 100");
    widths->widen();
    QCOMPARE(table.columnWidth(1), 40);
    // Another experiment: its columns fit its values, narrower too; the user's width stays.
    model.item(0, 2)->setText("/data");
    widths->refit();
    QVERIFY2(table.columnWidth(2) < widths->cap() / 2,
             qPrintable(QString::number(table.columnWidth(2))));
    QCOMPARE(table.columnWidth(1), 40);
}

namespace {

// The texts of a dialog's buttons, without their & mnemonics, in the order shown.
QStringList buttonTexts(QWidget* dialog) {
    QStringList texts;
    for (QAbstractButton* button :
         dialog->findChild<QDialogButtonBox*>()->findChildren<QAbstractButton*>()) {
        texts << button->text().remove('&');
    }
    return texts;
}

}  // namespace

// Issue 34.13: the German tour still showed English where Qt draws the texts (the restart
// question's Yes and No, Settings' OK, Cancel and Apply: Qt's qtbase_de.qm, which Debian's
// qt6-translations-l10n installs) and in the experiment list's statuses ("running",
// "finished"). The language is chosen in Settings as a user does, Apply first and then OK.
void TestAppViews::theRestartQuestionSettingsAndListSpeakGerman() {
    saveAppearance({Theme::System, QStringLiteral("en")});
    QCOMPARE(applyAppearance(savedAppearance()), QStringLiteral("en"));
    const auto backToEnglish = qScopeGuard([] {
        saveAppearance({});
        applyAppearance({Theme::System, QStringLiteral("en")});
    });
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QStringList beforeApply;
    QStringList afterApply;
    int step = 0;  // 0: choose Deutsch and Apply; 1 (a tick later, once retranslated): OK
    QTimer settings;
    settings.setInterval(50);
    connect(&settings, &QTimer::timeout, &window, [&] {
        auto* dialog = qobject_cast<SettingsDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            return;
        }
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        if (step++ == 0) {
            beforeApply = buttonTexts(dialog);
            auto* language = dialog->findChild<QComboBox*>("language");
            language->setCurrentIndex(language->findData(QStringLiteral("de")));
            buttons->button(QDialogButtonBox::Apply)->click();
            return;
        }
        settings.stop();
        afterApply = buttonTexts(dialog);
        buttons->button(QDialogButtonBox::Ok)->click();
    });
    settings.start();
    app_test::MessageBoxAnswer no(QMessageBox::No);
    window.showSettings();
    QVERIFY2(beforeApply.contains("Cancel"), qPrintable(beforeApply.join(", ")));
    QVERIFY2(afterApply.contains("OK") && afterApply.contains("Abbrechen") &&
                 afterApply.contains("Anwenden"),
             qPrintable(afterApply.join(", ")));
    QVERIFY2(no.answered(), "Apply, then OK, asked nothing about a restart");
    QVERIFY2(no.buttons().contains("Ja") && no.buttons().contains("Nein"),
             qPrintable(no.seen() + ": " + no.buttons().join(", ")));
    QVERIFY2(no.seen().contains("Neustart") || no.seen().contains("neu starten"),
             qPrintable(no.seen()));
    QVERIFY(window.isVisible());  // No: this instance goes on

    // Opened again in German, Settings reads German at once.
    SettingsDialog dialog;
    const QStringList opened = buttonTexts(&dialog);
    QVERIFY2(
        opened.contains("Abbrechen") && opened.contains("Anwenden") && !opened.contains("Cancel"),
        qPrintable(opened.join(", ")));

    // The experiment list's statuses as the engine words them, in German.
    ExperimentList list;
    std::vector<tunedeck::api::ExperimentListEntry> experiments(4);
    const QStringList words = {"running", "finished", "interrupted", "failed"};
    for (int i = 0; i < 4; ++i) {
        experiments[std::size_t(i)].experiment = QStringLiteral("e%1").arg(i);
        experiments[std::size_t(i)].status = words[i];
    }
    list.showList(experiments, {});
    QStringList shown;
    for (int i = list.topLevelItemCount() - 1; i >= 0; --i) {  // newest first
        shown << list.topLevelItem(i)->text(1);
    }
    QCOMPARE(shown, QStringList({"läuft", "abgeschlossen", "unterbrochen", "fehlgeschlagen"}));
}

#include "tst_app_views.moc"
