#include "views/analysis_tabs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSet>
#include <QSettings>
#include <QSlider>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "analysis/importance_view.h"
#include "analysis/lineage_view.h"
#include "analysis/parallel_coordinates_view.h"
#include "charts/metric_chart.h"
#include "charts/node_usage_view.h"
#include "charts/scatter_view.h"
#include "models/config_text.h"
#include "models/trial_table_model.h"
#include "plots/study_plots.h"
#include "plots/trial_health_view.h"
#include "session/engine_connection.h"
#include "session/experiment_session.h"
#include "views/curve_metric_picker.h"
#include "views/trial_detail_view.h"
#include "views/trial_log_follower.h"

namespace tunedeck::app {

AnalysisTabs::AnalysisTabs(ExperimentSession* session, EngineConnection* engine, QWidget* parent)
    : QTabWidget(parent), session_(session), engine_(engine) {
    setObjectName(QStringLiteral("views"));
    const ExperimentData* data = &session_->data();
    QWidget* curves = buildCurves();

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
    logFollower_ = new TrialLogFollower(&engine_->client(), log_, this);
    parallel_ = new ParallelCoordinatesView(data);
    scatter_ = new ScatterView(data);
    importance_ = new ImportanceView(data);
    lineage_ = new LineageView(data);
    plots_ = new StudyPlots(data);
    nodes_ = new NodeUsageView(&session_->usage());
    detail_ = new TrialDetailView(data);
    connect(parallel_, &ParallelCoordinatesView::trialClicked, this, &AnalysisTabs::trialClicked);
    connect(parallel_, &ParallelCoordinatesView::brushChanged, this,
            [this] { emit brushChanged(parallel_->brushedTrials()); });
    connect(scatter_, &ScatterView::trialClicked, this, &AnalysisTabs::trialClicked);
    connect(lineage_, &LineageView::trialClicked, this, &AnalysisTabs::trialClicked);
    connect(plots_, &StudyPlots::trialClicked, this, &AnalysisTabs::trialClicked);
    connect(nodes_, &NodeUsageView::maxWorkersRequested, this, [this](const QString& type, int n) {
        engine_->client().setMaxWorkers(session_->name(), type, n, [this](const Status& status) {
            if (!status) {
                emit requestFailed(tr("Max workers: %1").arg(status.message()));
            }
        });
    });
    addTab(curves, tr("Curves"));
    addTab(compare_, tr("Compare"));
    addTab(parallel_, tr("Parallel coordinates"));
    addTab(scatter_, tr("Parameter vs metric"));
    addTab(plots_, tr("Study plots"));
    addTab(importance_, tr("Importance"));
    addTab(lineage_, tr("PBT lineage"));
    addTab(nodes_, tr("Nodes and GPUs"));
    addTab(detail_, tr("Trial"));
    addTab(log_, tr("Log"));

    connect(session_, &ExperimentSession::opened, this, &AnalysisTabs::onOpened);
    connect(session_, &ExperimentSession::loaded, this, &AnalysisTabs::onLoaded);
    connect(session_, &ExperimentSession::selectionChanged, this, &AnalysisTabs::followSelection);
    connect(session_, &ExperimentSession::eventApplied, plots_, &StudyPlots::apply);
    connect(session_, &ExperimentSession::usageChanged, nodes_, &NodeUsageView::refresh);
    connect(session_, &ExperimentSession::healthChanged, health_, &TrialHealthView::refresh);
    // The search and the status filter choose the curves too (with no row selected).
    TrialFilter* filter = session_->filter();
    connect(filter, &QSortFilterProxyModel::rowsInserted, this, &AnalysisTabs::updateCurveTrials);
    connect(filter, &QSortFilterProxyModel::rowsRemoved, this, &AnalysisTabs::updateCurveTrials);
    connect(filter, &QSortFilterProxyModel::modelReset, this, &AnalysisTabs::updateCurveTrials);
    connect(filter, &QSortFilterProxyModel::layoutChanged, this, &AnalysisTabs::updateCurveTrials);
}

QWidget* AnalysisTabs::buildCurves() {
    chart_ = new MetricChart(&session_->data());
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
    connect(chart_, &MetricChart::trialClicked, this, &AnalysisTabs::trialClicked);
    auto* smoothing = new QSlider(Qt::Horizontal);
    smoothing->setRange(0, 99);
    smoothing->setToolTip(tr("Smoothing"));
    connect(smoothing, &QSlider::valueChanged, this,
            [this](int value) { chart_->setSmoothing(value / 100.0); });
    metricPicker_ = new CurveMetricPicker(session_, chart_);
    auto* pane = new QWidget;
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    controls->addWidget(metricPicker_);
    controls->addWidget(xAxis);
    controls->addWidget(logScale);
    controls->addWidget(legend);
    controls->addWidget(new QLabel(tr("Smoothing")));
    controls->addWidget(smoothing);
    controls->addStretch();
    layout->addLayout(controls);
    layout->addWidget(chart_, 1);
    health_ = new TrialHealthView(&session_->health(), &session_->data());
    layout->addWidget(health_);
    return pane;
}

void AnalysisTabs::onOpened() {
    health_->recomputeNow();
    plots_->clear();
    parallel_->clearBrushes();  // its ranges were of the other experiment's axes
    nodes_->refresh();
}

void AnalysisTabs::onLoaded() {
    nodes_->refresh();
    health_->recomputeNow();
    chart_->setLogScale(false);
}

void AnalysisTabs::clearBrushes() {
    parallel_->clearBrushes();
}

void AnalysisTabs::refresh(const ExperimentData::Changes& changes) {
    metricPicker_->refresh(changes);
    if (changes.curvesChanged || changes.rowsAdded || changes.scopeChanged) {
        chart_->markDirty();
    }
    if (changes.logsChanged) {
        updateLog();
    }
    if (!changes.rows.empty() || changes.scopeChanged) {
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

void AnalysisTabs::followSelection(const QStringList& ids) {
    updateCurveTrials();
    parallel_->setSelectedTrials(ids);
    scatter_->setSelectedTrials(ids);
    lineage_->setSelectedTrials(ids);
    plots_->setSelectedTrials(ids);
    updateCompare();
    detail_->setTrials(ids);
    updateLog();
}

void AnalysisTabs::updateCurveTrials() {
    const QStringList& ids = session_->selection();
    std::set<QString> shown(ids.begin(), ids.end());
    const TrialFilter* filter = session_->filter();
    const TrialTableModel* model = session_->tableModel();
    if (shown.empty() && filter->rowCount() < model->rowCount()) {
        for (int r = 0; r < filter->rowCount(); ++r) {
            shown.insert(model->trialAt(filter->mapToSource(filter->index(r, 0)).row()));
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

void AnalysisTabs::updateCompare() {
    const QStringList& ids = session_->selection();
    const ExperimentData& data = session_->data();
    compare_->clear();
    if (ids.isEmpty()) {
        compare_->setRowCount(0);
        compare_->setColumnCount(0);
        return;
    }
    const QStringList keys = data.configKeys();
    compare_->setColumnCount(int(ids.size()));
    compare_->setHorizontalHeaderLabels(ids);
    QStringList rows = keys;
    // The score the bold rows are chosen by ("Best trial by"), named with its scope: each
    // objective's with several, and whether the trial is on their Pareto front (isBest).
    const bool multi = data.isMultiObjective();
    const int objectives = multi ? int(data.objectives().size()) : 1;
    for (int k = 0; k < objectives; ++k) {
        rows << tr("%1, %2").arg(multi ? data.objectives()[std::size_t(k)].metric : data.metric(),
                                 scoreScopeText(data.scope()));
    }
    if (multi) {
        rows << tr("Pareto front");
    }
    const int iterationRow = int(rows.size());
    rows << tr("iteration") << tr("status");
    compare_->setRowCount(int(rows.size()));
    compare_->setVerticalHeaderLabels(rows);
    for (int column = 0; column < ids.size(); ++column) {
        const int row = data.rowOf(ids[column]);
        if (row < 0) {
            continue;
        }
        const TrialRow& t = data.trials()[std::size_t(row)];
        for (int k = 0; k < keys.size(); ++k) {
            compare_->setItem(k, column, new QTableWidgetItem(configValueText(t, keys[k])));
        }
        for (int k = 0; k < objectives; ++k) {
            const double score = multi ? data.objectiveScore(row, std::size_t(k)) : data.score(row);
            compare_->setItem(int(keys.size()) + k, column,
                              new QTableWidgetItem(
                                  std::isnan(score) ? QString() : QString::number(score, 'g', 6)));
        }
        if (multi) {
            compare_->setItem(
                iterationRow - 1, column,
                new QTableWidgetItem(data.isBest(row) ? tr("on the front") : tr("dominated")));
        }
        compare_->setItem(iterationRow, column, new QTableWidgetItem(QString::number(t.iteration)));
        // The status as the table's Status cell reads it: translated, a scheduler's early
        // stop and a stop by the user told apart from a trial that ran to its end.
        const QModelIndex status = session_->tableModel()->index(row, TrialTableModel::Status);
        compare_->setItem(iterationRow + 1, column, new QTableWidgetItem(status.data().toString()));
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

void AnalysisTabs::updateLog() {
    const QStringList& ids = session_->selection();
    // One trial of the attached engine: its whole trial.log, followed as it grows.
    if (ids.size() == 1 && engine_->isReady() && session_->ofEngine()) {
        logFollower_->follow(session_->name(), ids.first());
        return;
    }
    logFollower_->follow({}, {});
    QStringList lines;
    for (const QString& id : ids.isEmpty() ? QStringList{QString()} : ids) {
        for (const QString& line : session_->data().logOf(id)) {
            lines << (id.isEmpty() ? line : QStringLiteral("[%1] %2").arg(id, line));
        }
    }
    log_->setPlainText(lines.join('\n'));
    log_->moveCursor(QTextCursor::End);
}

bool AnalysisTabs::saveCurrentView(const QString& path, const QString& title,
                                   QString* error) const {
    QWidget* view = currentWidget();
    if (view == chart_->parentWidget()) {
        view = chart_;  // the curves without their controls
    }
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        // Painted again into the SVG device, so lines stay lines (the curves item draws its
        // curves as paths there instead of its raster cache).
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(view->size());
        svg.setViewBox(view->rect());
        svg.setTitle(title);
        svg.setDescription(tabText(currentIndex()));
        QPainter painter;
        if (!painter.begin(&svg)) {
            *error = tr("cannot write %1").arg(path);
            return false;
        }
        view->render(&painter);
        painter.end();
        return QFileInfo(path).size() > 0;
    }
    if (!view->grab().save(path)) {
        *error = tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

}  // namespace tunedeck::app
