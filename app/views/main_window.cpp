#include "views/main_window.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "analysis/lineage_view.h"
#include "analysis/parallel_coordinates_view.h"
#include "charts/chart_theme.h"
#include "charts/importance_view.h"
#include "charts/metric_chart.h"
#include "charts/node_usage_view.h"
#include "charts/scatter_view.h"
#include "charts/trial_health_view.h"
#include "editors/cluster_editor.h"
#include "editors/experiment_editor.h"
#include "models/config_text.h"
#include "models/spec_choices.h"
#include "plots/study_plots.h"
#include "views/attach_dialog.h"
#include "views/settings_dialog.h"
#include "views/start_page.h"
#include "views/trial_column_chooser.h"
#include "views/trial_column_widths.h"
#include "views/trial_detail_view.h"
#include "views/trial_log_follower.h"

namespace tunedeck::app {

namespace {

constexpr int kTickMs = 100;          // models and status bar follow the stream at 10 Hz
constexpr int kListRefreshMs = 5000;  // the experiments list

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Tunedeck"));
    model_ = new TrialTableModel(&data_, this);
    filter_ = new TrialFilter(this);
    filter_->setSourceModel(model_);
    buildLayout();
    buildMenus();
    connect(&client_, &EngineClient::ready, this, [this](const api::HelloAnswer& hello) {
        // Folders are this machine's only when the engine is; a remote one's come over the wire.
        resultsRoot_ = remote_ ? QString() : hello.results;
        serverResults_ = hello.results;
        connection_->setText(server_.isEmpty()
                                 ? tr("Engine %1, results in %2").arg(hello.engine, hello.results)
                                 : tr("Engine %1 on %2, results in %3 there")
                                       .arg(hello.engine, server_, hello.results));
        refreshExperimentList();
    });
    connect(&client_, &EngineClient::connectionLost, this, [this](const QString& reason) {
        connection_->setText(tr("Engine connection lost (%1); reconnecting...").arg(reason));
    });
    connect(&client_, &EngineClient::problem, this, &MainWindow::requestFailed);
    connect(&client_, &EngineClient::decodedEvent, this, &MainWindow::onEvent);
    connect(&client_, &EngineClient::subscribed, this,
            [this](const QString& experiment, const api::SubscribedAnswer& info) {
                if (experiment == experiment_ && !budget_.trials && !budget_.seconds) {
                    budget_ = budgetOfSpec(info.spec, folder_);
                    updateStatusBar();
                }
                if (experiment == experiment_ && data_.choices().isEmpty()) {
                    data_.setChoices(choicesOfSpec(info.spec, folder_));
                }
                if (experiment != experiment_ || !data_.trials().empty()) {
                    return;  // a resubscription after a reconnect: the data is there
                }
                data_.setObjective(info.metric, info.minimize);
                model_->reset();
                chart_->setLogScale(false);
                showWhatIsOpen();
            });
    connect(&client_, &EngineClient::caughtUp, this, [this](const QString& experiment) {
        caughtUp_ = caughtUp_ || experiment == experiment_;
    });
    connect(this, &MainWindow::requestFailed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    tick_.setInterval(kTickMs);
    connect(&tick_, &QTimer::timeout, this, &MainWindow::onTick);
    tick_.start();
    listTimer_.setInterval(kListRefreshMs);
    connect(&listTimer_, &QTimer::timeout, this, &MainWindow::refreshExperimentList);
    listTimer_.start();

    applyChartTheme(this);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildLayout() {
    // Left: the experiments of the attached engine.
    experiments_ = new QTreeWidget;
    experiments_->setObjectName(QStringLiteral("experimentList"));
    experiments_->setHeaderLabels({tr("Experiment"), tr("Status"), tr("Trials"), tr("Best")});
    experiments_->setRootIsDecorated(false);
    experiments_->header()->setStretchLastSection(true);
    // One click opens: the highlighted row is always the experiment shown.
    connect(experiments_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item) {
            openExperiment(item->text(0));
        }
    });
    connect(experiments_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        openExperiment(item->text(0));
        pages_->setCurrentIndex(1);  // from the start page too
    });
    auto* dock = new QDockWidget(tr("Experiments"), this);
    dock->setObjectName(QStringLiteral("experiments"));
    dock->setWidget(experiments_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    // Top: the trial table with its search and status filter.
    search_ = new QLineEdit;
    search_->setObjectName(QStringLiteral("trialSearch"));
    search_->setPlaceholderText(tr("Search trials, configs, nodes..."));
    search_->setClearButtonEnabled(true);
    connect(search_, &QLineEdit::textChanged, filter_, &TrialFilter::setSearch);
    statusFilter_ = new QComboBox;
    statusFilter_->setObjectName(QStringLiteral("statusFilter"));
    statusFilter_->addItem(tr("All statuses"), QString());
    for (const char* status : {"PENDING", "RUNNING", "PAUSED", "TERMINATED", "ERROR"}) {
        statusFilter_->addItem(TrialTableModel::statusText(QString::fromLatin1(status)),
                               QString::fromLatin1(status));
    }
    statusFilter_->addItem(tr("Stopped early"), QStringLiteral("EARLY_STOPPED"));
    connect(statusFilter_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setStatus(statusFilter_->currentData().toString()); });
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("trials"));
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(TrialTableModel::Trial, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    // Rows as tall as their text: the style's 30 px left six trials in view at 1280x800.
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->setWordWrap(false);  // one line per trial; a long status widens its column (onTick)
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    columnWidths_ = new TrialColumnWidths(table_);
    new TrialColumnChooser(table_);  // the header's right click: which columns are shown
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::onSelectionChanged);
    // The search and the status filter choose the curves too (with no row selected).
    connect(filter_, &QSortFilterProxyModel::rowsInserted, this, &MainWindow::updateCurveTrials);
    connect(filter_, &QSortFilterProxyModel::rowsRemoved, this, &MainWindow::updateCurveTrials);
    connect(filter_, &QSortFilterProxyModel::modelReset, this, &MainWindow::updateCurveTrials);
    connect(filter_, &QSortFilterProxyModel::layoutChanged, this, &MainWindow::updateCurveTrials);
    auto* tablePane = new QWidget;
    auto* tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(search_, 1);
    filterRow->addWidget(statusFilter_);
    clearBrush_ = new QPushButton;
    clearBrush_->setObjectName(QStringLiteral("clearBrush"));
    clearBrush_->setToolTip(
        tr("The table shows the trials inside every range brushed on the "
           "parallel coordinates' axes. Click to show all trials again."));
    clearBrush_->hide();
    filterRow->addWidget(clearBrush_);
    filterRow->addWidget(buildScopePicker());
    tableLayout->addWidget(buildFolderBar());
    tableLayout->addLayout(filterRow);
    tableLayout->addWidget(table_);

    // Bottom: curves, compare, log.
    chart_ = new MetricChart(&data_);
    auto* xAxis = new QComboBox;
    xAxis->addItem(tr("by iteration"));
    xAxis->addItem(tr("by wall time"));
    connect(xAxis, &QComboBox::currentIndexChanged, this, [this](int index) {
        chart_->setXAxis(index == 0 ? MetricChart::XAxis::Iteration : MetricChart::XAxis::WallTime);
    });
    auto* logScale = new QCheckBox(tr("Log scale"));
    connect(logScale, &QCheckBox::toggled, chart_, &MetricChart::setLogScale);
    auto* legend = new QCheckBox(tr("Legend"));
    legend->setObjectName(QStringLiteral("curveLegend"));
    legend->setToolTip(tr("Names the curves shown, in their colours; exported charts carry it"));
    legend->setChecked(QSettings().value(QStringLiteral("curves/legend"), true).toBool());
    chart_->setLegendVisible(legend->isChecked());
    connect(legend, &QCheckBox::toggled, this, [this](bool on) {
        chart_->setLegendVisible(on);
        QSettings().setValue(QStringLiteral("curves/legend"), on);
    });
    connect(chart_, &MetricChart::trialClicked, this, &MainWindow::selectTrial);
    auto* smoothing = new QSlider(Qt::Horizontal);
    smoothing->setRange(0, 99);
    smoothing->setToolTip(tr("Smoothing"));
    connect(smoothing, &QSlider::valueChanged, this,
            [this](int value) { chart_->setSmoothing(value / 100.0); });
    auto* chartPane = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    auto* chartControls = new QHBoxLayout;
    chartControls->addWidget(buildMetricPicker());
    chartControls->addWidget(xAxis);
    chartControls->addWidget(logScale);
    chartControls->addWidget(legend);
    chartControls->addWidget(new QLabel(tr("Smoothing")));
    chartControls->addWidget(smoothing);
    chartControls->addStretch();
    chartLayout->addLayout(chartControls);
    chartLayout->addWidget(chart_, 1);
    health_ = new TrialHealthView(&trialHealth_, &data_);
    chartLayout->addWidget(health_);

    compare_ = new QTableWidget;
    compare_->setObjectName(QStringLiteral("compareTrials"));
    compare_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(20000);
    log_->setObjectName(QStringLiteral("log"));
    log_->setPlaceholderText(
        tr("No log lines yet. Select a trial to follow its log; without a selection, the "
           "experiment's warnings and the trials' log messages are shown here."));
    logFollower_ = new TrialLogFollower(&client_, log_, this);
    parallel_ = new ParallelCoordinatesView(&data_);
    scatter_ = new ScatterView(&data_);
    importance_ = new ImportanceView(&data_);
    lineage_ = new LineageView(&data_);
    connect(parallel_, &ParallelCoordinatesView::trialClicked, this, &MainWindow::selectTrial);
    connect(clearBrush_, &QPushButton::clicked, parallel_, &ParallelCoordinatesView::clearBrushes);
    connect(parallel_, &ParallelCoordinatesView::brushChanged, this, [this] {
        const std::optional<QStringList> inside = parallel_->brushedTrials();
        filter_->setTrials(inside ? std::optional(QSet<QString>(inside->begin(), inside->end()))
                                  : std::nullopt);
        clearBrush_->setVisible(inside.has_value());
        clearBrush_->setText(inside ? tr("Brushed: %1 of %2 trials - Clear")
                                          .arg(inside->size())
                                          .arg(data_.trials().size())
                                    : QString());
    });
    connect(scatter_, &ScatterView::trialClicked, this, &MainWindow::selectTrial);
    connect(lineage_, &LineageView::trialClicked, this, &MainWindow::selectTrial);
    plots_ = new StudyPlots(&data_);
    connect(plots_, &StudyPlots::trialClicked, this, &MainWindow::selectTrial);
    nodes_ = new NodeUsageView(&usage_);
    connect(nodes_, &NodeUsageView::maxWorkersRequested, this, [this](const QString& type, int n) {
        client_.setMaxWorkers(experiment_, type, n,
                              [this](const Status& status) { report(tr("Max workers"), status); });
    });
    tabs_ = new QTabWidget;
    tabs_->setObjectName(QStringLiteral("views"));
    tabs_->addTab(chartPane, tr("Curves"));
    tabs_->addTab(compare_, tr("Compare"));
    tabs_->addTab(parallel_, tr("Parallel coordinates"));
    tabs_->addTab(scatter_, tr("Parameter vs metric"));
    tabs_->addTab(plots_, tr("Study plots"));
    tabs_->addTab(importance_, tr("Importance"));
    tabs_->addTab(lineage_, tr("PBT lineage"));
    tabs_->addTab(nodes_, tr("Nodes and GPUs"));
    detail_ = new TrialDetailView(&data_);
    tabs_->addTab(detail_, tr("Trial"));
    tabs_->addTab(log_, tr("Log"));

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(tablePane);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    // The start page until an experiment is shown.
    startPage_ = new StartPage;
    connect(startPage_, &StartPage::editFile, this, &MainWindow::editExperimentFile);
    connect(startPage_, &StartPage::editClusterFile, this,
            [this](const QString& path) { openClusterEditor(this, path, engineBinary_); });
    connect(startPage_, &StartPage::openFolder, this, &MainWindow::openFolder);
    connect(startPage_, &StartPage::openFileRequested, this, &MainWindow::chooseAndEditFile);
    connect(startPage_, &StartPage::openFolderRequested, this, &MainWindow::chooseAndOpenFolder);
    connect(startPage_, &StartPage::attachRequested, this, [this] { showAttachDialog(*this); });
    pages_ = new QStackedWidget;
    pages_->addWidget(startPage_);
    pages_->addWidget(splitter);
    setCentralWidget(pages_);

    counts_ = new QLabel;
    counts_->setObjectName(QStringLiteral("trialCounts"));
    progress_ = new QProgressBar;
    progress_->setMinimumWidth(180);
    progress_->setMaximumWidth(240);
    connection_ = new QLabel(tr("Not attached to an engine"));
    connection_->setObjectName(QStringLiteral("engineConnection"));
    statusBar()->addWidget(counts_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(connection_);
}

void MainWindow::onEvent(const QString& experiment, const events::Event& event) {
    if (experiment != experiment_) {
        return;
    }
    plots_->apply(event);  // the timeline's runs, from status changes and usage samples
    applyToCurveMetric(event);
    if (trialHealth_.apply(event)) {
        health_->refresh();
    }
    if (usage_.apply(event)) {
        nodes_->refresh();
        if (event.as<events::NodeUsageEvent>() != nullptr) {
            return;  // only the nodes' view shows samples; a node event goes to the log too
        }
    }
    data_.apply(event);
    if (const auto* limits = event.as<events::LimitsEvent>()) {
        applyLimits(*limits, &budget_);
        updateStatusBar();
    }
    if (caughtUp_ && (event.as<events::ExperimentFinishedEvent>() != nullptr ||
                      event.as<events::ExperimentStartedEvent>() != nullptr)) {
        refreshExperimentList();  // its status in the list changed
    }
}

void MainWindow::onTick() {
    const ExperimentData::Changes changes = data_.takeChanges();
    updateCurveMetric(changes);
    if (changes.rowsAdded || !changes.rows.empty() || changes.configKeysChanged ||
        changes.scopeChanged) {
        // A new column (a metric first reported, a config key, the first note) resets the
        // model, and Qt clears the selection with it: the user's trials are chosen again.
        const QStringList chosen =
            model_->refreshResets(changes) ? selectedTrials() : QStringList();
        model_->refresh(changes);
        selectTrials(chosen);
        updateStatusBar();
        if (changes.configKeysChanged || changes.metricNamesChanged) {
            columnWidths_->refit();  // whole headers, also in German
        }
        // Wider values in view, and the bold row (bold is wider), widen their columns.
        const int best = data_.bestRow();
        columnWidths_->widen(best < 0 ? -1 : filter_->mapFromSource(model_->index(best, 0)).row());
    }
    updateShownListRow();
    if (budget_.seconds && !budget_.trials && data_.experimentStatus() == "running") {
        updateStatusBar();  // the time budget's bar moves with the clock
    }
    if (changes.curvesChanged || changes.rowsAdded || changes.scopeChanged) {
        chart_->markDirty();
    }
    if (changes.logsChanged) {
        updateLog();
    }
    if (!changes.rows.empty()) {
        updateCompare();
    }
    detail_->refresh(changes);
    if (changes.rowsAdded || !changes.rows.empty() || changes.exploitsChanged ||
        changes.scopeChanged) {
        // Each view limits its own work (and does none while hidden).
        parallel_->refresh();
        scatter_->refresh();
        importance_->refresh();
        lineage_->refresh();
        plots_->refresh();
    }
}

QModelIndex MainWindow::tableIndexOf(const QString& trialId) const {
    const int row = data_.rowOf(trialId);
    return row < 0 ? QModelIndex() : filter_->mapFromSource(model_->index(row, 0));
}

void MainWindow::selectTrial(const QString& trialId) {
    const QModelIndex index = tableIndexOf(trialId);
    if (index.isValid()) {
        table_->selectRow(index.row());
        table_->scrollTo(index);
    }
}

void MainWindow::selectTrials(const QStringList& trialIds) {
    QItemSelection rows;
    for (const QString& id : trialIds) {
        const QModelIndex index = tableIndexOf(id);
        if (index.isValid()) {
            rows.select(index, index);
        }
    }
    if (!rows.isEmpty()) {
        table_->selectionModel()->select(
            rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
}

QStringList MainWindow::selectedTrials() const {
    QStringList ids;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
        ids << model_->trialAt(filter_->mapToSource(index).row());
    }
    return ids;
}

void MainWindow::onSelectionChanged() {
    const QStringList ids = selectedTrials();
    updateCurveTrials();
    parallel_->setSelectedTrials(ids);
    scatter_->setSelectedTrials(ids);
    lineage_->setSelectedTrials(ids);
    plots_->setSelectedTrials(ids);
    updateCompare();
    detail_->setTrials(ids);
    updateLog();
}

void MainWindow::updateCurveTrials() {
    const QStringList ids = selectedTrials();
    std::set<QString> shown(ids.begin(), ids.end());
    if (shown.empty() && filter_->rowCount() < model_->rowCount()) {
        for (int r = 0; r < filter_->rowCount(); ++r) {
            shown.insert(model_->trialAt(filter_->mapToSource(filter_->index(r, 0)).row()));
        }
        if (shown.empty()) {
            shown.insert(QString());  // no trial's id is empty: no curve is drawn
        }
    }
    if (shown != curveTrials_) {
        curveTrials_ = shown;
        chart_->setVisibleTrials(shown);
        health_->setTrials(shown);
    }
}

void MainWindow::updateStatusBar() {
    const StatusCounts c = data_.counts();
    const ProgressShown shown =
        progressOf(budget_, c.terminated + c.error, c.total(),
                   QDateTime::currentMSecsSinceEpoch() / 1000.0 - data_.runStartTime(),
                   !data_.experimentStatus().isEmpty() &&
                       data_.experimentStatus() != QLatin1String("running"));
    progress_->setMaximum(shown.maximum);
    progress_->setValue(shown.value);
    progress_->setFormat(shown.text);
    counts_->setText(tr("%1 running, %2 pending, %3 paused, %4 terminated, %5 errored")
                         .arg(c.running)
                         .arg(c.pending)
                         .arg(c.paused)
                         .arg(c.terminated)
                         .arg(c.error));
}

void MainWindow::updateShownListRow() {
    QTreeWidgetItem* shown = experiments_->currentItem();
    const QString trials = QString::number(data_.trials().size());
    if (shown && shown->text(0) == experiment_ && shown->text(2) != trials) {
        shown->setText(2, trials);
    }
}

void MainWindow::updateCompare() {
    const QStringList ids = selectedTrials();
    compare_->clear();
    if (ids.isEmpty()) {
        compare_->setRowCount(0);
        compare_->setColumnCount(0);
        return;
    }
    const QStringList keys = data_.configKeys();
    compare_->setColumnCount(int(ids.size()));
    compare_->setHorizontalHeaderLabels(ids);
    QStringList rows = keys;
    rows << tr("best %1").arg(data_.metric()) << tr("iteration") << tr("status");
    compare_->setRowCount(int(rows.size()));
    compare_->setVerticalHeaderLabels(rows);
    for (int column = 0; column < ids.size(); ++column) {
        const int row = data_.rowOf(ids[column]);
        if (row < 0) {
            continue;
        }
        const TrialRow& t = data_.trials()[std::size_t(row)];
        for (int k = 0; k < keys.size(); ++k) {
            compare_->setItem(k, column, new QTableWidgetItem(configValueText(t, keys[k])));
        }
        compare_->setItem(int(keys.size()), column,
                          new QTableWidgetItem(QString::number(t.best, 'g', 6)));
        compare_->setItem(int(keys.size()) + 1, column,
                          new QTableWidgetItem(QString::number(t.iteration)));
        const std::optional<EarlyStop> early = earlyStopOf(t);
        compare_->setItem(
            int(keys.size()) + 2, column,
            new QTableWidgetItem(early ? TrialTableModel::earlyStopCellText(*early) : t.status));
    }
    // Rows where the selected trials differ are marked: that is what a comparison is for.
    for (int k = 0; k < rows.size(); ++k) {
        QSet<QString> values;
        for (int column = 0; column < ids.size(); ++column) {
            values.insert(compare_->item(k, column) ? compare_->item(k, column)->text()
                                                    : QString());
        }
        if (values.size() > 1) {
            for (int column = 0; column < ids.size(); ++column) {
                if (QTableWidgetItem* item = compare_->item(k, column)) {
                    QFont font = item->font();
                    font.setBold(true);
                    item->setFont(font);
                    item->setBackground(QColor(255, 196, 0, 60));
                }
            }
        }
    }
}

void MainWindow::updateLog() {
    const QStringList ids = selectedTrials();
    // One trial of the attached engine: its whole trial.log, followed as it grows.
    if (ids.size() == 1 && client_.isReady() && ofEngine_) {
        logFollower_->follow(experiment_, ids.first());
        return;
    }
    logFollower_->follow({}, {});
    QStringList lines;
    for (const QString& id : ids.isEmpty() ? QStringList{QString()} : ids) {
        for (const QString& line : data_.logOf(id)) {
            lines << (id.isEmpty() ? line : QStringLiteral("[%1] %2").arg(id, line));
        }
    }
    log_->setPlainText(lines.join('\n'));
    log_->moveCursor(QTextCursor::End);
}

}  // namespace tunedeck::app
