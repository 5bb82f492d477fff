// The part of MainWindow that names the best trial: the "Best trial by" picker over the trial
// table (the scope every view ranks trials by, the engine's own until the user picks another),
// and what follows that scope out of the window: Export best config, Copy best config and
// Compare two experiments. The engine ranks by the same rule (core/best_trial.h), so the bold row
// and what these write are the same trial.
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QStatusBar>
#include <QTableView>
#include <QTreeWidget>

#include "models/trial_table_model.h"
#include "views/experiments_compare.h"
#include "views/main_window.h"

namespace tunedeck::app {

QWidget* MainWindow::buildScopePicker() {
    auto* picker = new QWidget;
    auto* layout = new QHBoxLayout(picker);
    layout->setContentsMargins(0, 0, 0, 0);
    scope_ = new QComboBox;
    scope_->setObjectName(QStringLiteral("bestScope"));
    for (const QString& name : scoreScopeNames()) {
        const ScoreScope scope = *scoreScopeFromName(name);
        scope_->addItem(scoreScopeText(scope), name);
        if (scope == kDefaultScoreScope) {
            scope_->setItemText(scope_->count() - 1,
                                tr("%1 (the engine's)").arg(scoreScopeText(scope)));
            scope_->setCurrentIndex(scope_->count() - 1);
        }
    }
    scope_->setToolTip(
        tr("What the best trial is chosen by: the bold row, the star of Parameter vs metric, "
           "Compare two experiments, Export best config and Copy best config all follow it. "
           "The engine's own choice (tunedeck-engine best) is the last result."));
    connect(scope_, &QComboBox::currentIndexChanged, this, [this] {
        data_.setScope(*scoreScopeFromName(scope_->currentData().toString()));
        onTick();  // the bold row, the curves' thick line and the star move now
    });
    auto* label = new QLabel(tr("Best trial by"));
    label->setBuddy(scope_);
    layout->addWidget(label);
    layout->addWidget(scope_);
    return picker;
}

void MainWindow::copyBestConfig(const QString& format) {
    client_.best(experiment_, format, scoreScopeName(data_.scope()),
                 [this](const Status& status, const api::TextAnswer& best) {
                     if (!status) {
                         emit requestFailed(status.message());
                         return;
                     }
                     QApplication::clipboard()->setText(best.text);
                     statusBar()->showMessage(tr("Best config copied"), 5000);
                 });
}

void MainWindow::exportBest() {
    // The format follows the chosen filter by its position, whatever language it is shown in.
    const QStringList filters{tr("YAML (*.yaml)"), tr("JSON (*.json)"),
                              tr("Command-line flags (*.txt)")};
    const QStringList formats{QStringLiteral("yaml"), QStringLiteral("json"),
                              QStringLiteral("flags")};
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export best config"),
                                                      experiment_ + QStringLiteral("-best.yaml"),
                                                      filters.join(QStringLiteral(";;")), &filter);
    if (!path.isEmpty()) {
        exportBestTo(path, formats.value(std::max<qsizetype>(0, filters.indexOf(filter))));
    }
}

void MainWindow::exportBestTo(const QString& path, const QString& format) {
    client_.best(experiment_, format, scoreScopeName(data_.scope()),
                 [this, path](const Status& status, const api::TextAnswer& answer) {
                     saveText(path, status, answer.text);
                 });
}

void MainWindow::compareExperiments() {
    const QStringList folders = experimentFolders();
    // The shown experiment by its folder: a read-only copy of `asha` is not the engine's `asha`.
    const QString current = experiment_.isEmpty() || (remote_ && ofEngine_) ? QString() : folder_;
    QString other;
    for (const QString& folder : folders) {
        if (folder != current) {
            other = folder;
            break;
        }
    }
    auto* dialog =
        new ExperimentsCompare(folders, current.isEmpty() ? other : current,
                               current.isEmpty() ? QString() : other, data_.scope(), this);
    dialog->show();
}

}  // namespace tunedeck::app
