#include "editors/stop_criteria_table.h"

#include "editors/small_button.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace tunedeck::app {

namespace {

enum Column { KeyColumn, ValueColumn };
constexpr int kRowsShown = 2;  // the table's height before it scrolls

}  // namespace

StopCriteriaTable::StopCriteriaTable(QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, 2)) {
    table_->setObjectName(QStringLiteral("stopCriteria"));
    table_->setHorizontalHeaderLabels({tr("Result key"), tr("Stop at")});
    table_->horizontalHeader()->setSectionResizeMode(KeyColumn, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setToolTip(
        tr("A trial stops once any criterion is met: training_iteration and time_total_s at "
           "that many; a metric at the threshold in the direction of its mode, or as written "
           "with {\">=\": x} / {\"<=\": x}."));
    const int rowHeight = table_->verticalHeader()->defaultSectionSize();
    table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                           rowHeight * kRowsShown + 2 * table_->frameWidth());
    connect(table_, &QTableWidget::cellChanged, this, &StopCriteriaTable::onCellChanged);

    QToolButton* add = smallButton(QStringLiteral("+"), tr("Add a stop criterion"),
                                   QStringLiteral("addStopCriterion"));
    QToolButton* remove = smallButton(QStringLiteral("−"), tr("Remove the stop criterion"),
                                      QStringLiteral("removeStopCriterion"));
    connect(add, &QToolButton::clicked, this, [this] {
        QStringList candidates{QStringLiteral("training_iteration"),
                               QStringLiteral("time_total_s")};
        candidates << metrics_;
        for (const QString& key : candidates) {
            const bool taken = std::any_of(shown_.begin(), shown_.end(),
                                           [&](const WrittenValue& v) { return v.key == key; });
            if (!taken) {
                pendingEdit_ = key;
                const QString first =
                    key == QLatin1String("training_iteration") ? QStringLiteral("100")
                    : key == QLatin1String("time_total_s")     ? QStringLiteral("3600")
                                                               : QStringLiteral("0");
                emit criterionEdited(key, first);
                return;
            }
        }
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        const int row = table_->currentRow();
        if (row >= 0 && row < shown_.size()) {
            emit criterionEdited(shown_[row].key, QString());
        }
    });
    auto* buttons = new QVBoxLayout;
    buttons->setSpacing(0);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
}

void StopCriteriaTable::showCriteria(const QList<WrittenValue>& criteria,
                                     const QStringList& metrics) {
    metrics_ = metrics;
    // Also when the table shows what the text refused (a key renamed to one already there).
    bool same = criteria == shown_ && table_->rowCount() == criteria.size();
    for (int row = 0; same && row < criteria.size(); ++row) {
        same = table_->item(row, KeyColumn)->text() == criteria[row].key &&
               table_->item(row, ValueColumn)->text() == criteria[row].text;
    }
    if (!same) {
        shown_ = criteria;
        const QSignalBlocker block(table_);
        const int current = table_->currentRow();
        table_->setRowCount(int(criteria.size()));
        for (int row = 0; row < criteria.size(); ++row) {
            const WrittenValue& criterion = criteria[row];
            table_->setItem(row, KeyColumn, new QTableWidgetItem(criterion.key));
            auto* value = new QTableWidgetItem(criterion.text);
            if (criterion.block) {
                value->setFlags(value->flags() & ~Qt::ItemIsEditable);
                value->setToolTip(tr("Written over several lines: edit it in the YAML tab."));
            }
            table_->setItem(row, ValueColumn, value);
        }
        table_->setCurrentCell(std::min(current, table_->rowCount() - 1), KeyColumn);
    }
    for (int row = 0; row < shown_.size() && !pendingEdit_.isEmpty(); ++row) {
        if (shown_[row].key == pendingEdit_) {
            QTimer::singleShot(0, table_, [this, row] {
                if (row < table_->rowCount()) {
                    table_->setCurrentCell(row, ValueColumn);
                    table_->editItem(table_->item(row, ValueColumn));
                }
            });
        }
    }
    pendingEdit_.clear();
}

void StopCriteriaTable::onCellChanged(int row, int column) {
    if (row < 0 || row >= shown_.size()) {
        return;
    }
    const WrittenValue& criterion = shown_[row];
    const QString text = table_->item(row, column)->text().trimmed();
    if (column == KeyColumn && text != criterion.key) {
        emit criterionRenamed(criterion.key, text);
    } else if (column == ValueColumn && text != criterion.text) {
        emit criterionEdited(criterion.key, text);
    }
}

}  // namespace tunedeck::app
