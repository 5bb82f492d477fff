#include "views/trial_column_chooser.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QTableView>

namespace tunedeck::app {

namespace {

const QString kSettingsKey = QStringLiteral("trialTable/hiddenColumns");

}  // namespace

TrialColumnChooser::TrialColumnChooser(QTableView* table) : QObject(table), table_(table) {
    const QStringList stored = QSettings().value(kSettingsKey).toStringList();
    hidden_ = QSet<QString>(stored.begin(), stored.end());
    QHeaderView* header = table_->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, &TrialColumnChooser::showMenu);
    QAbstractItemModel* model = table_->model();
    connect(model, &QAbstractItemModel::modelReset, this, &TrialColumnChooser::apply);
    connect(model, &QAbstractItemModel::columnsInserted, this, &TrialColumnChooser::apply);
    connect(model, &QAbstractItemModel::columnsRemoved, this, &TrialColumnChooser::apply);
    connect(model, &QAbstractItemModel::headerDataChanged, this, &TrialColumnChooser::apply);
    apply();
}

QString TrialColumnChooser::title(int column) const {
    return table_->model()->headerData(column, Qt::Horizontal).toString();
}

void TrialColumnChooser::apply() {
    const int columns = table_->model()->columnCount();
    for (int column = 1; column < columns; ++column) {
        table_->setColumnHidden(column, hidden_.contains(title(column)));
    }
}

void TrialColumnChooser::setShown(const QString& name, bool shown) {
    if (shown) {
        hidden_.remove(name);
    } else {
        hidden_.insert(name);
    }
    QStringList stored(hidden_.begin(), hidden_.end());
    stored.sort();
    QSettings().setValue(kSettingsKey, stored);
    apply();
}

QMenu* TrialColumnChooser::createMenu() {
    auto* menu = new QMenu(table_);
    menu->setObjectName(QStringLiteral("trialColumns"));
    menu->setToolTipsVisible(true);
    const int columns = table_->model()->columnCount();
    for (int column = 0; column < columns; ++column) {
        const QString name = title(column);
        QAction* action = menu->addAction(name);
        action->setCheckable(true);
        action->setChecked(!table_->isColumnHidden(column));
        if (column == 0) {
            action->setEnabled(false);  // a row without its trial's id means nothing
            continue;
        }
        connect(action, &QAction::toggled, this,
                [this, name](bool checked) { setShown(name, checked); });
    }
    menu->addSeparator();
    QAction* all = menu->addAction(tr("Show all columns"));
    all->setEnabled(!hidden_.isEmpty());
    connect(all, &QAction::triggered, this, [this] {
        hidden_.clear();
        QSettings().remove(kSettingsKey);
        apply();
    });
    return menu;
}

void TrialColumnChooser::showMenu(const QPoint& at) {
    QMenu* menu = createMenu();
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(table_->horizontalHeader()->mapToGlobal(at));
}

}  // namespace tunedeck::app
