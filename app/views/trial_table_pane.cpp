#include "views/trial_table_pane.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QTableView>
#include <QVBoxLayout>

#include "core/code_version_text.h"
#include "models/trial_table_model.h"
#include "session/experiment_session.h"
#include "views/trial_column_chooser.h"
#include "views/trial_column_widths.h"

namespace tunedeck::app {

TrialTablePane::TrialTablePane(ExperimentSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
    TrialFilter* filter = session_->filter();
    search_ = new QLineEdit;
    search_->setObjectName(QStringLiteral("trialSearch"));
    search_->setPlaceholderText(tr("Search trials, configs, nodes..."));
    search_->setClearButtonEnabled(true);
    connect(search_, &QLineEdit::textChanged, filter, &TrialFilter::setSearch);
    statusFilter_ = new QComboBox;
    statusFilter_->setObjectName(QStringLiteral("statusFilter"));
    statusFilter_->addItem(tr("All statuses"), QString());
    for (const char* status : {"PENDING", "RUNNING", "PAUSED", "TERMINATED", "ERROR"}) {
        statusFilter_->addItem(TrialTableModel::statusText(QString::fromLatin1(status)),
                               QString::fromLatin1(status));
    }
    statusFilter_->addItem(tr("Stopped early"), QStringLiteral("EARLY_STOPPED"));
    statusFilter_->addItem(tr("Stopped by the user"), QStringLiteral("USER_STOPPED"));
    connect(statusFilter_, &QComboBox::currentIndexChanged, this,
            [this, filter] { filter->setStatus(statusFilter_->currentData().toString()); });
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("trials"));
    table_->setModel(filter);
    table_->setSortingEnabled(true);
    table_->sortByColumn(TrialTableModel::Trial, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    // Rows as tall as their text: the style's 30 px left six trials in view at 1280x800.
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->setWordWrap(false);  // one line per trial; a long status widens its column
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    columnWidths_ = new TrialColumnWidths(table_);
    new TrialColumnChooser(table_);  // the header's right click: which columns are shown
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { session_->setSelection(selectedTrials()); });
    connect(session_, &ExperimentSession::opened, this, [this] { setBrushed(std::nullopt); });

    clearBrush_ = new QPushButton;
    clearBrush_->setObjectName(QStringLiteral("clearBrush"));
    clearBrush_->setToolTip(
        tr("The table shows the trials inside every range brushed on the "
           "parallel coordinates' axes. Click to show all trials again."));
    clearBrush_->hide();
    connect(clearBrush_, &QPushButton::clicked, this, &TrialTablePane::clearBrushRequested);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(search_, 1);
    filterRow->addWidget(statusFilter_);
    filterRow->addWidget(clearBrush_);
    filterRow->addWidget(buildScopePicker());
    layout->addWidget(buildFolderBar());
    layout->addLayout(filterRow);
    layout->addWidget(table_);
}

QWidget* TrialTablePane::buildScopePicker() {
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
           "The engine's own choice (tunedeck-engine best) is the last result. With several "
           "objectives it scores each of them, and the Pareto front follows it."));
    connect(scope_, &QComboBox::currentIndexChanged, this, [this] {
        session_->data().setScope(*scoreScopeFromName(scope_->currentData().toString()));
        emit scopeChanged();  // the bold row, the curves' thick line and the star move now
    });
    auto* label = new QLabel(tr("Best trial by"));
    label->setBuddy(scope_);
    layout->addWidget(label);
    layout->addWidget(scope_);
    return picker;
}

QWidget* TrialTablePane::buildFolderBar() {
    auto* bar = new QWidget;
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    readOnlyBadge_ = new QLabel(tr("Read-only"));
    readOnlyBadge_->setObjectName(QStringLiteral("readOnlyBadge"));
    readOnlyBadge_->setToolTip(
        tr("Read from its folder: the attached engine does not run this experiment, so nothing "
           "new arrives and its trials cannot be stopped, paused or resumed from here."));
    readOnlyBadge_->setStyleSheet(QStringLiteral(
        "QLabel { background: #b35c00; color: white; font-weight: bold; border-radius: 3px; "
        "padding: 1px 6px; }"));
    readOnlyBadge_->hide();
    folderLabel_ = new QLabel;
    folderLabel_->setObjectName(QStringLiteral("openFolder"));
    folderLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long path must not widen the window: it is cut, and whole in the tooltip.
    folderLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    codeLabel_ = new QLabel;
    codeLabel_->setObjectName(QStringLiteral("codeVersion"));
    codeLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Whole (a hash in 12 digits, showWhatIsOpen); the folder's path takes the rest, cut.
    layout->addWidget(readOnlyBadge_);
    layout->addWidget(folderLabel_, 1);
    layout->addWidget(codeLabel_);
    return bar;
}

void TrialTablePane::showWhatIsOpen(bool remote) {
    const bool shown = session_->isOpen();
    const bool ofEngine = session_->ofEngine();
    const QString folder = session_->folder();
    readOnlyBadge_->setVisible(shown && !ofEngine);
    QString where;
    if (shown && remote && ofEngine) {
        where = tr("Folder on the server: %1").arg(folder);
    } else if (shown) {
        where = tr("Folder: %1").arg(QDir::toNativeSeparators(folder));
    }
    folderLabel_->setText(where);
    folderLabel_->setToolTip(where);
    // A folder on a server is not read from here; the CLI's `show` prints its code there.
    QString code;
    if (shown && !(remote && ofEngine)) {
        QFile record(folder + QStringLiteral("/code/version.json"));
        if (record.open(QIODevice::ReadOnly)) {
            code = codeVersionText(QJsonDocument::fromJson(record.readAll()).object());
        }
    }
    // The files' sha256 in 12 digits, as a git commit is named: its 64 ran past the window's
    // edge at 1280x800. The tooltip has it whole, in the words of `show`.
    QString brief = code;
    brief.replace(QRegularExpression(QStringLiteral("\\b([0-9a-f]{12})[0-9a-f]{52}\\b")),
                  QStringLiteral("\\1"));
    codeLabel_->setText(code.isEmpty() ? QString() : tr("Code: %1").arg(brief));
    codeLabel_->setToolTip(
        tr("%1\nThe code the run used; `tunedeck-engine rerun FOLDER` re-creates it and runs the "
           "same experiment again.")
            .arg(tr("Code: %1").arg(code)));
    codeLabel_->setVisible(!code.isEmpty());
}

void TrialTablePane::setBrushed(const std::optional<QStringList>& inside) {
    session_->filter()->setTrials(
        inside ? std::optional(QSet<QString>(inside->begin(), inside->end())) : std::nullopt);
    clearBrush_->setVisible(inside.has_value());
    clearBrush_->setText(inside ? tr("Brushed: %1 of %2 trials - Clear")
                                      .arg(inside->size())
                                      .arg(session_->data().trials().size())
                                : QString());
}

void TrialTablePane::refresh(const ExperimentData::Changes& changes) {
    TrialTableModel* model = session_->tableModel();
    // A new column (a metric first reported, a config key, the first note) resets the model,
    // and Qt clears the selection with it: the user's trials are chosen again.
    const QStringList chosen = model->refreshResets(changes) ? selectedTrials() : QStringList();
    model->refresh(changes);
    selectTrials(chosen);
    if (changes.configKeysChanged || changes.metricNamesChanged) {
        columnWidths_->refit();  // whole headers, also in German
    }
    // Wider values in view, and the bold row (bold is wider), widen their columns.
    const int best = session_->data().bestRow();
    columnWidths_->widen(best < 0 ? -1
                                  : session_->filter()->mapFromSource(model->index(best, 0)).row());
}

QModelIndex TrialTablePane::indexOf(const QString& trialId) const {
    const int row = session_->data().rowOf(trialId);
    return row < 0 ? QModelIndex()
                   : session_->filter()->mapFromSource(session_->tableModel()->index(row, 0));
}

void TrialTablePane::selectTrial(const QString& trialId) {
    const QModelIndex index = indexOf(trialId);
    if (index.isValid()) {
        table_->selectRow(index.row());
        table_->scrollTo(index);
    }
}

void TrialTablePane::selectTrials(const QStringList& trialIds) {
    QItemSelection rows;
    for (const QString& id : trialIds) {
        const QModelIndex index = indexOf(id);
        if (index.isValid()) {
            rows.select(index, index);
        }
    }
    if (!rows.isEmpty()) {
        table_->selectionModel()->select(
            rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
}

QStringList TrialTablePane::selectedTrials() const {
    QStringList ids;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
        ids << session_->tableModel()->trialAt(session_->filter()->mapToSource(index).row());
    }
    return ids;
}

}  // namespace tunedeck::app
