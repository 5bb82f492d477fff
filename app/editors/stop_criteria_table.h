// The experiment's `stop:` criteria in the form: a row per criterion, its result key and its
// threshold as written (`30`, `{">=": 0.98}`), both editable in place, with buttons to add a
// criterion and remove the current one. It reports each change; the text is where the criteria
// live (SCHEMA.md, "stop"). Thread-safety: GUI thread only.
#pragma once

#include <QList>
#include <QWidget>

#include "editors/experiment_fields.h"

class QTableWidget;

namespace tunedeck::app {

class StopCriteriaTable : public QWidget {
    Q_OBJECT
  public:
    explicit StopCriteriaTable(QWidget* parent = nullptr);

    // Shows `criteria`; `metrics` are the experiment's objectives, offered for a new criterion
    // once training_iteration and time_total_s are taken.
    void showCriteria(const QList<WrittenValue>& criteria, const QStringList& metrics);
    QTableWidget* table() const { return table_; }

  signals:
    // `typed` empty: the criterion is removed.
    void criterionEdited(const QString& key, const QString& typed);
    void criterionRenamed(const QString& from, const QString& to);

  private:
    void onCellChanged(int row, int column);

    QTableWidget* table_;
    QList<WrittenValue> shown_;
    QStringList metrics_;
    QString pendingEdit_;  // a criterion just added, opened for typing once it is shown
};

}  // namespace tunedeck::app
