// The part of MainWindow that picks the metric the curves show: the experiment's objective, or
// any other metric its trials reported. Only the curves follow the pick; the bold row, the
// table's objective columns, the thick best curve and every ranking stay the objective's. The
// picked metric's curves are read from the experiment's folder (as when it was opened), then
// kept up by the events that come after; the choice is remembered per folder.
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QThread>
#include <memory>

#include "charts/metric_chart.h"
#include "models/history_reader.h"
#include "views/main_window.h"

namespace tunedeck::app {

namespace {

const QString kSettingsKey = QStringLiteral("curveMetrics");  // folder -> metric

QString savedCurveMetric(const QString& folder) {
    return QSettings().value(kSettingsKey).toMap().value(folder).toString();
}

void saveCurveMetric(const QString& folder, const QString& metric) {
    QSettings settings;
    QVariantMap saved = settings.value(kSettingsKey).toMap();
    if (metric.isEmpty()) {
        saved.remove(folder);
    } else {
        saved.insert(folder, metric);
    }
    settings.setValue(kSettingsKey, saved);
}

}  // namespace

QWidget* MainWindow::buildMetricPicker() {
    auto* picker = new QWidget;
    auto* layout = new QHBoxLayout(picker);
    layout->setContentsMargins(0, 0, 0, 0);
    metricPicker_ = new QComboBox;
    metricPicker_->setObjectName(QStringLiteral("curveMetric"));
    metricPicker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    metricPicker_->setToolTip(
        tr("The metric the curves show. The bold row, the best trial's thick curve and the "
           "table's objective columns stay the experiment's objective."));
    connect(metricPicker_, &QComboBox::activated, this, [this] {
        const QString metric = metricPicker_->currentData().toString();
        saveCurveMetric(curveFolder_, metric);
        pickCurveMetric(metric);
    });
    auto* label = new QLabel(tr("Metric"));
    label->setBuddy(metricPicker_);
    layout->addWidget(label);
    layout->addWidget(metricPicker_);
    return picker;
}

void MainWindow::updateCurveMetric(const ExperimentData::Changes& changes) {
    if (curveFolder_ != folder_) {
        curveFolder_ = folder_;  // another experiment: its own choice
        if (!curveMetric_.isEmpty()) {
            pickCurveMetric({});
        }
    }
    if (changes.metricNamesChanged) {
        // The objective first, then every other metric the trials reported.
        const QSignalBlocker blocker(metricPicker_);
        metricPicker_->clear();
        const QString objective = data_.metric();
        if (!objective.isEmpty()) {
            metricPicker_->addItem(tr("%1 (objective)").arg(objective), QString());
        }
        for (const QString& name : data_.metricNames()) {
            if (name != objective) {
                metricPicker_->addItem(name, name);
            }
        }
        const QString wanted =
            curveMetric_.isEmpty() ? savedCurveMetric(curveFolder_) : curveMetric_;
        const int index = metricPicker_->findData(wanted);
        metricPicker_->setCurrentIndex(std::max(0, index));
        if (index > 0 && wanted != curveMetric_) {
            pickCurveMetric(wanted);  // the choice saved for this folder, once it is reported
        }
    }
    if (!curveMetric_.isEmpty()) {
        const ExperimentData::Changes picked = curveData_.takeChanges();
        if (picked.curvesChanged || picked.rowsAdded) {
            chart_->markDirty();
        }
    }
}

void MainWindow::pickCurveMetric(const QString& metric) {
    const int load = ++curveLoads_;
    curveEvents_.clear();
    curveLoading_ = false;
    curveData_.clear();
    curveMetric_ = metric == data_.metric() ? QString() : metric;
    if (curveMetric_.isEmpty()) {
        chart_->setCurves(nullptr);
        return;
    }
    curveData_.setObjective(curveMetric_, data_.minimize());
    chart_->setCurves(&curveData_);
    if (!QFileInfo::exists(folder_ + QStringLiteral("/experiment.sqlite"))) {
        return;  // a server's folder: the curves grow from the results that come from now on
    }
    // What the folder holds so far, read on a worker thread as when it was opened; the events
    // that come meanwhile are kept and applied on top of what was read.
    curveLoading_ = true;
    auto history = std::make_shared<History>();
    auto error = std::make_shared<QString>();
    QThread* reader = QThread::create([folder = folder_, metric = curveMetric_, history, error] {
        readHistory(folder, history.get(), error.get(), metric);
    });
    connect(reader, &QThread::finished, this, [this, reader, load, history, error] {
        reader->deleteLater();
        if (load != curveLoads_) {
            return;  // another pick or another experiment meanwhile
        }
        curveLoading_ = false;
        if (!error->isEmpty()) {
            emit requestFailed(*error);
            return;
        }
        curveData_.load(std::move(history->trials), std::move(history->exploits), history->status,
                        history->startTime);
        for (const events::Event& event : curveEvents_) {
            if (event.seq > history->lastSeq) {
                curveData_.apply(event);
            }
        }
        curveEvents_.clear();
        chart_->setCurves(&curveData_);
        chart_->markDirty();
    });
    reader->start();
}

void MainWindow::applyToCurveMetric(const events::Event& event) {
    if (curveMetric_.isEmpty()) {
        return;
    }
    if (curveLoading_) {
        curveEvents_.push_back(event);
    } else {
        curveData_.apply(event);
    }
}

}  // namespace tunedeck::app
