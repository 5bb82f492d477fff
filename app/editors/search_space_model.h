// The search-space table's model: one row per parameter, its domain and that domain's fields in
// columns (a field the domain does not take is blank and read-only), a log-scale check where the
// domain has a log twin, and the `when` condition. Edits are not kept here: they are reported
// as requests and come back through setRows once the YAML text has taken them.
// Thread-safety: GUI thread only.
#pragma once

#include <QAbstractTableModel>

#include "editors/search_space_rows.h"

namespace tunedeck::app {

class SearchSpaceModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Name, Domain, Low, High, Q, Mean, Sd, Values, LogScale, Condition, ColumnCount };

    explicit SearchSpaceModel(QObject* parent = nullptr);

    void setRows(const QList<ParameterRow>& rows);
    const QList<ParameterRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    // What a domain draws, in a sentence (the picker's tooltips).
    static QString domainDescription(const QString& domain);
    static std::optional<ParameterField> fieldOf(int column);

  signals:
    // A cell was edited: the name, the domain, a field's text, or the log-scale check (bool).
    void editRequested(int row, int column, const QVariant& value);

  private:
    bool applies(const ParameterRow& row, int column) const;

    QList<ParameterRow> rows_;
};

}  // namespace tunedeck::app
