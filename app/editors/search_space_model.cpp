#include "editors/search_space_model.h"

#include <QApplication>
#include <QPalette>

namespace tunedeck::app {

SearchSpaceModel::SearchSpaceModel(QObject* parent) : QAbstractTableModel(parent) {}

std::optional<ParameterField> SearchSpaceModel::fieldOf(int column) {
    switch (column) {
        case Low:
            return ParameterField::Low;
        case High:
            return ParameterField::High;
        case Q:
            return ParameterField::Q;
        case Mean:
            return ParameterField::Mean;
        case Sd:
            return ParameterField::Sd;
        case Values:
            return ParameterField::Values;
        default:
            return std::nullopt;
    }
}

QString SearchSpaceModel::domainDescription(const QString& domain) {
    static const QHash<QString, const char*> descriptions{
        {QStringLiteral("uniform"), QT_TR_NOOP("a float in [low, high)")},
        {QStringLiteral("quniform"), QT_TR_NOOP("uniform, rounded to a multiple of q")},
        {QStringLiteral("loguniform"), QT_TR_NOOP("a float whose log is uniform; low > 0")},
        {QStringLiteral("qloguniform"),
         QT_TR_NOOP("loguniform, rounded to a multiple of q; low > 0")},
        {QStringLiteral("randint"), QT_TR_NOOP("an integer in [low, high): high is excluded")},
        {QStringLiteral("qrandint"),
         QT_TR_NOOP("a multiple of q in [low, high]: high is included")},
        {QStringLiteral("lograndint"),
         QT_TR_NOOP("an integer in [low, high) drawn on a log scale; low > 0")},
        {QStringLiteral("normal"), QT_TR_NOOP("a float from a normal distribution; sd > 0")},
        {QStringLiteral("qnormal"), QT_TR_NOOP("normal, rounded to a multiple of q")},
        {QStringLiteral("choice"), QT_TR_NOOP("one of the values, uniformly")},
        {QStringLiteral("grid"), QT_TR_NOOP("every one of the values: all grid parameters' "
                                            "combinations, repeated num_samples times")},
        {kConstantDomain, QT_TR_NOOP("the same value for every trial")},
    };
    const char* text = descriptions.value(domain);
    return text ? tr(text) : QString();
}

void SearchSpaceModel::setRows(const QList<ParameterRow>& rows) {
    bool sameShape = rows.size() == rows_.size();
    for (qsizetype i = 0; sameShape && i < rows.size(); ++i) {
        sameShape = rows[i].name == rows_[i].name;
    }
    if (!sameShape) {
        beginResetModel();
        rows_ = rows;
        endResetModel();
        return;
    }
    rows_ = rows;  // an open editor or the selection survives a change of values
    if (!rows_.isEmpty()) {
        emit dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
    }
}

int SearchSpaceModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int SearchSpaceModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool SearchSpaceModel::applies(const ParameterRow& row, int column) const {
    if (column == LogScale) {
        return !logScaleTwin(row.domain).isEmpty();
    }
    const auto field = fieldOf(column);
    return !field || domainHasField(row.domain, *field);
}

QVariant SearchSpaceModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) {
        return {};
    }
    const ParameterRow& row = rows_[index.row()];
    const int column = index.column();
    if (role == Qt::BackgroundRole && !applies(row, column)) {
        return QApplication::palette().color(QPalette::Window);
    }
    if (role == Qt::CheckStateRole && column == LogScale && applies(row, column)) {
        return isLogScale(row.domain) ? Qt::Checked : Qt::Unchecked;
    }
    if (role == Qt::ToolTipRole) {
        if (!row.editable) {
            return tr("Its options hold parameters of their own: edit it in the YAML tab.");
        }
        if (column == Domain) {
            return domainDescription(row.domain);
        }
        if (!applies(row, column)) {
            return tr("%1 takes no such field").arg(row.domain);
        }
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole) {
        return {};
    }
    switch (column) {
        case Name:
            return role == Qt::EditRole ? row.keyPath.last() : row.name;
        case Domain:
            return row.domain;
        case Condition:
            return row.condition;
        case LogScale:
            return {};
        default:
            return fieldText(row, *fieldOf(column));
    }
}

QVariant SearchSpaceModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case Name:
            return tr("Parameter");
        case Domain:
            return tr("Domain");
        case Low:
            return tr("Low");
        case High:
            return tr("High");
        case Q:
            return tr("q");
        case Mean:
            return tr("Mean");
        case Sd:
            return tr("SD");
        case Values:
            return tr("Values");
        case LogScale:
            return tr("Log scale");
        case Condition:
            return tr("When");
        default:
            return {};
    }
}

Qt::ItemFlags SearchSpaceModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const ParameterRow& row = rows_[index.row()];
    const int column = index.column();
    if (column == Condition || !applies(row, column) || (!row.editable && column != Name)) {
        return flags;
    }
    if (column == LogScale) {
        return flags | Qt::ItemIsUserCheckable;
    }
    return flags | Qt::ItemIsEditable;
}

bool SearchSpaceModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || !(flags(index) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable))) {
        return false;
    }
    if (index.column() == LogScale && role == Qt::CheckStateRole) {
        emit editRequested(index.row(), index.column(), value.toInt() == Qt::Checked);
        return true;
    }
    if (role != Qt::EditRole || value.toString() == data(index, Qt::EditRole).toString()) {
        return false;
    }
    emit editRequested(index.row(), index.column(), value);
    return true;
}

}  // namespace tunedeck::app
