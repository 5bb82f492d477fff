#include "views/experiment_list.h"

#include <QHeaderView>
#include <QSignalBlocker>

namespace tunedeck::app {

ExperimentList::ExperimentList(QWidget* parent) : QTreeWidget(parent) {
    setObjectName(QStringLiteral("experimentList"));
    setHeaderLabels({tr("Experiment"), tr("Status"), tr("Trials"), tr("Best")});
    setRootIsDecorated(false);
    header()->setStretchLastSection(true);
    // One click opens: the highlighted row is always the experiment shown.
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item) {
            emit openRequested(item->text(0), false);
        }
    });
    connect(this, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { emit openRequested(item->text(0), true); });
}

void ExperimentList::showList(const std::vector<api::ExperimentListEntry>& experiments,
                              const QString& shown) {
    const QSignalBlocker rebuilding(this);  // a row set up is not a click
    clear();
    for (auto e = experiments.rbegin(); e != experiments.rend(); ++e) {  // newest first
        auto* row = new QTreeWidgetItem(
            this, {e->experiment, statusText(e->status), QString::number(e->trials), e->best});
        if (e->status == QLatin1String("paused") || e->status == QLatin1String("interrupted")) {
            row->setToolTip(1, tr("Resumable: Experiment > Resume continues its trials from "
                                  "their latest checkpoints."));
        }
    }
    highlight(shown);
}

QString ExperimentList::statusText(const QString& status) {
    // The words the engine records (core/experiment_loop.cpp): "paused" when it was stopped
    // to be resumed, "interrupted" when it ended without settling its trials.
    if (status == QLatin1String("running")) {
        return tr("running");
    }
    if (status == QLatin1String("finished")) {
        return tr("finished");
    }
    if (status == QLatin1String("paused")) {
        return tr("paused");
    }
    if (status == QLatin1String("interrupted")) {
        return tr("interrupted");
    }
    if (status == QLatin1String("failed")) {
        return tr("failed");
    }
    return status;
}

void ExperimentList::highlight(const QString& shown) {
    const QSignalBlocker highlighting(this);
    QTreeWidgetItem* row = nullptr;
    for (int i = 0; i < topLevelItemCount() && !shown.isEmpty(); ++i) {
        row = topLevelItem(i)->text(0) == shown ? topLevelItem(i) : row;
    }
    setCurrentItem(row);
    if (!row) {
        clearSelection();
    }
}

void ExperimentList::showTrialCount(const QString& shown, int trials) {
    QTreeWidgetItem* row = currentItem();
    const QString count = QString::number(trials);
    if (row && row->text(0) == shown && row->text(2) != count) {
        row->setText(2, count);
    }
}

}  // namespace tunedeck::app
