#include "views/trial_column_widths.h"

#include <QHeaderView>
#include <QTableView>
#include <algorithm>

namespace tunedeck::app {

namespace {

constexpr int kCapChars = 32;  // a column's own widest: a long path or status is elided beyond

}  // namespace

TrialColumnWidths::TrialColumnWidths(QTableView* table) : QObject(table), table_(table) {
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int column, int, int) {
                if (!setting_) {
                    userSized_.insert(title(column));
                }
            });
}

int TrialColumnWidths::cap() const {
    return table_->fontMetrics().averageCharWidth() * kCapChars;
}

QString TrialColumnWidths::title(int column) const {
    return table_->model() == nullptr
               ? QString()
               : table_->model()->headerData(column, Qt::Horizontal).toString();
}

int TrialColumnWidths::needed(int column, int extraRow) const {
    const QAbstractItemModel* model = table_->model();
    // Only the rows in view: Qt's own fit looks at up to a thousand rows per column, too slow
    // for every frame of a large experiment.
    const int first = std::max(0, table_->rowAt(0));
    int last = table_->rowAt(table_->viewport()->height() - 1);
    last = last < 0 ? model->rowCount() - 1 : last;
    const int grid = table_->showGrid() ? 1 : 0;  // as QTableView::sizeHintForColumn counts
    int width = table_->horizontalHeader()->sectionSizeHint(column);
    for (int row = first; row <= last; ++row) {
        width = std::max(width, table_->sizeHintForIndex(model->index(row, column)).width() + grid);
    }
    if (extraRow >= 0 && extraRow < model->rowCount()) {
        width = std::max(width,
                         table_->sizeHintForIndex(model->index(extraRow, column)).width() + grid);
    }
    return width;
}

void TrialColumnWidths::setWidth(int column, int width) {
    setting_ = true;
    table_->setColumnWidth(column, width);
    setting_ = false;
}

void TrialColumnWidths::refit() {
    if (table_->model() == nullptr) {
        return;
    }
    for (int column = 0; column < table_->model()->columnCount(); ++column) {
        if (!userSized_.contains(title(column))) {
            setWidth(column, std::min(cap(), needed(column, -1)));
        }
    }
}

void TrialColumnWidths::widen(int extraRow) {
    if (table_->model() == nullptr) {
        return;
    }
    for (int column = 0; column < table_->model()->columnCount(); ++column) {
        if (userSized_.contains(title(column))) {
            continue;
        }
        const int width = std::min(cap(), needed(column, extraRow));
        if (width > table_->columnWidth(column)) {
            setWidth(column, width);
        }
    }
}

}  // namespace tunedeck::app
