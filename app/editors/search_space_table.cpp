#include "editors/search_space_table.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include "editors/search_space_model.h"

namespace tunedeck::app {

namespace {

// The domain column's editor: a picker of the domains, each with what it draws as its tooltip,
// committed as soon as one is picked.
class DomainDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override {
        if (index.column() != SearchSpaceModel::Domain) {
            return QStyledItemDelegate::createEditor(parent, option, index);
        }
        auto* picker = new QComboBox(parent);
        picker->setObjectName(QStringLiteral("domainPicker"));
        for (const QString& domain : domainNames()) {
            picker->addItem(domain, domain);
            picker->setItemData(picker->count() - 1, SearchSpaceModel::domainDescription(domain),
                                Qt::ToolTipRole);
        }
        connect(picker, &QComboBox::activated, this, [this, picker] {
            auto* self = const_cast<DomainDelegate*>(this);
            emit self->commitData(picker);
            emit self->closeEditor(picker);
        });
        return picker;
    }

    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        if (auto* picker = qobject_cast<QComboBox*>(editor)) {
            picker->setCurrentIndex(picker->findData(index.data(Qt::EditRole)));
            return;
        }
        QStyledItemDelegate::setEditorData(editor, index);
    }

    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override {
        if (auto* picker = qobject_cast<QComboBox*>(editor)) {
            model->setData(index, picker->currentData(), Qt::EditRole);
            return;
        }
        QStyledItemDelegate::setModelData(editor, model, index);
    }
};

}  // namespace

SearchSpaceTable::SearchSpaceTable(QWidget* parent)
    : QWidget(parent), model_(new SearchSpaceModel(this)), view_(new QTableView) {
    view_->setObjectName(QStringLiteral("searchSpace"));
    view_->setModel(model_);
    view_->setItemDelegate(new DomainDelegate(view_));
    view_->verticalHeader()->hide();
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::SelectedClicked);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setWordWrap(false);
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 8);

    note_ = new QLabel;
    note_->setWordWrap(true);
    note_->hide();
    grid_ = new QLabel;
    grid_->setObjectName(QStringLiteral("gridSize"));
    grid_->setWordWrap(true);  // beside the buttons in a narrow window (German at 200%)
    add_ = new QPushButton(tr("Add parameter"));
    add_->setObjectName(QStringLiteral("addParameter"));
    remove_ = new QPushButton(tr("Remove parameter"));
    remove_->setObjectName(QStringLiteral("removeParameter"));

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(grid_, 1);
    bottom->addWidget(add_);
    bottom->addWidget(remove_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(note_);
    layout->addWidget(view_, 1);
    layout->addLayout(bottom);

    connect(model_, &SearchSpaceModel::editRequested, this, &SearchSpaceTable::onEdit);
    connect(add_, &QPushButton::clicked, this, [this] {
        if (!yaml_) {
            return;
        }
        QStringList taken;
        for (const ParameterRow& row : model_->rows()) {
            taken << row.keyPath.value(1);
        }
        QString name = QStringLiteral("param");
        for (int n = 2; taken.contains(name); ++n) {
            name = QStringLiteral("param%1").arg(n);
        }
        request(addParameterEdits(*yaml_, name));
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        const int row = view_->currentIndex().row();
        if (yaml_ && row >= 0 && row < model_->rows().size()) {
            request(removeParameterEdits(*yaml_, model_->rows()[row]));
        }
    });
}

void SearchSpaceTable::showText(std::shared_ptr<const YamlText> yaml, int numSamples) {
    yaml_ = std::move(yaml);
    const bool parsed = yaml_ && yaml_->isParsed();
    const SearchSpaceRows space = parsed ? readSearchSpace(*yaml_) : SearchSpaceRows{};
    if (parsed) {
        model_->setRows(space.rows);
    }
    view_->setEnabled(parsed && space.externalFile.isEmpty());
    add_->setEnabled(view_->isEnabled());
    remove_->setEnabled(view_->isEnabled());
    note_->setVisible(!space.externalFile.isEmpty());
    note_->setText(tr("The search space is read from %1: edit that file.").arg(space.externalFile));
    if (view_->isEnabled() && !view_->horizontalHeader()->sectionsMoved()) {
        view_->resizeColumnsToContents();
        // A long list of values (a choice of groups) must not push the other columns away.
        const int widest = view_->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 40;
        if (view_->columnWidth(SearchSpaceModel::Values) > widest) {
            view_->setColumnWidth(SearchSpaceModel::Values, widest);
        }
    }

    const GridCount grid = countGrid(model_->rows(), numSamples);
    if (grid.sizes.isEmpty()) {
        grid_->setText(
            tr("No grid parameters: %n config(s) drawn (num_samples).", nullptr, numSamples));
        return;
    }
    QStringList factors;
    for (const qint64 size : grid.sizes) {
        factors << QString::number(size);
    }
    // Each count in its own words, so that it reads "1 sample" and "30 trials".
    grid_->setText(tr("Grid: %1 = %2 × %3 = %4")
                       .arg(factors.join(QStringLiteral(" × ")),
                            tr("%n combination(s)", nullptr, int(grid.combinations)),
                            tr("%n sample(s)", nullptr, numSamples),
                            tr("%n trial(s)", nullptr, int(grid.trials))));
}

QString SearchSpaceTable::gridText() const {
    return grid_->text();
}

void SearchSpaceTable::onEdit(int row, int column, const QVariant& value) {
    if (!yaml_ || row < 0 || row >= model_->rows().size()) {
        return;
    }
    const ParameterRow& parameter = model_->rows()[row];
    switch (column) {
        case SearchSpaceModel::Name:
            request(renameEdits(*yaml_, parameter, value.toString()));
            return;
        case SearchSpaceModel::Domain:
            request(domainEdits(*yaml_, parameter, value.toString()));
            return;
        case SearchSpaceModel::LogScale:
            request(logScaleEdits(*yaml_, parameter, value.toBool()));
            return;
        default:
            if (const auto field = SearchSpaceModel::fieldOf(column)) {
                request(fieldEdits(*yaml_, parameter, *field, value.toString()));
            }
    }
}

void SearchSpaceTable::request(const QList<TextEdit>& edits) {
    if (edits.isEmpty()) {
        return;
    }
    // Later, once the item view has finished committing: the text's change resets this model.
    // Edits computed against a text that has changed since are dropped.
    QMetaObject::invokeMethod(
        this,
        [this, edits, basis = yaml_] {
            if (basis == yaml_) {
                emit editsRequested(edits);
            }
        },
        Qt::QueuedConnection);
}

}  // namespace tunedeck::app
