#include "views/curve_metric_picker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>

#include "charts/metric_chart.h"
#include "session/experiment_session.h"

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

CurveMetricPicker::CurveMetricPicker(ExperimentSession* session, MetricChart* chart,
                                     QWidget* parent)
    : QWidget(parent), session_(session), chart_(chart), picker_(new QComboBox) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    picker_->setObjectName(QStringLiteral("curveMetric"));
    picker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    picker_->setToolTip(
        tr("The metric the curves show. The bold row, the best trial's thick curve and the "
           "table's objective columns stay the experiment's objective."));
    connect(picker_, &QComboBox::activated, this, [this] {
        const QString metric = picker_->currentData().toString();
        saveCurveMetric(session_->folder(), metric);
        pick(metric);
    });
    PickedMetricCurves* picked = &session_->pickedCurves();
    connect(picked, &PickedMetricCurves::changed, this, [this, picked] {
        chart_->setCurves(picked->curves());
        chart_->markDirty();
    });
    // Another experiment: its own metrics, and its own choice once they are reported.
    connect(session_, &ExperimentSession::opened, this, [this] {
        const QSignalBlocker blocker(picker_);
        picker_->clear();
    });
    auto* label = new QLabel(tr("Metric"));
    label->setBuddy(picker_);
    layout->addWidget(label);
    layout->addWidget(picker_);
}

void CurveMetricPicker::refresh(const ExperimentData::Changes& changes) {
    PickedMetricCurves& picked = session_->pickedCurves();
    if (changes.metricNamesChanged) {
        // The objective first, then every other metric the trials reported.
        const QSignalBlocker blocker(picker_);
        picker_->clear();
        const QString objective = session_->data().metric();
        if (!objective.isEmpty()) {
            picker_->addItem(tr("%1 (objective)").arg(objective), QString());
        }
        for (const QString& name : session_->data().metricNames()) {
            if (name != objective) {
                picker_->addItem(name, name);
            }
        }
        const QString wanted =
            picked.metric().isEmpty() ? savedCurveMetric(session_->folder()) : picked.metric();
        const int index = picker_->findData(wanted);
        picker_->setCurrentIndex(std::max(0, index));
        if (index > 0 && wanted != picked.metric()) {
            pick(wanted);  // the choice saved for this folder, once it is reported
        }
    }
    if (picked.curves() != nullptr) {
        const ExperimentData::Changes news = picked.curves()->takeChanges();
        if (news.curvesChanged || news.rowsAdded) {
            chart_->markDirty();
        }
    }
}

void CurveMetricPicker::pick(const QString& metric) {
    const ExperimentData& data = session_->data();
    session_->pickedCurves().pick(metric == data.metric() ? QString() : metric, session_->folder(),
                                  data.minimize());
}

}  // namespace tunedeck::app
