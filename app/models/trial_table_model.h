// The trial table of the monitor: one row per trial of an ExperimentData, with its status (in
// colour), node, iteration, latest and best of the objective, runtime, then one column per
// other metric the trials reported (its value in the trial's last result), then one per config
// key. Once any trial has a note, a Note column comes before the metrics (one line each, whole in
// the tooltip). With several objectives a "Pareto front" column follows (a star on the front's
// rows, models/pareto_front.h), and the front's rows are bold instead of one best row.
// A trial a scheduler stopped early reads "stopped by ASHA at 6" in its own colour, not
// TERMINATED (sorted and filtered as EARLY_STOPPED, NNI's status). The best trial's row
// (ExperimentData::bestRow, by the window's scope) is bold, with a tooltip
// naming the scope and its score.
// Updates arrive in batches from refresh() (called on the view's timer), never per result.
// Sorting and searching go through a QSortFilterProxyModel (TrialFilter); Qt::UserRole gives the
// value to sort by. Thread-safety: GUI thread only.
#pragma once

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>
#include <optional>

#include "models/experiment_data.h"

namespace tunedeck::app {

class TrialTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    // The metric columns start at FirstExtra (after the Note column, when there is one), the
    // config keys after them.
    enum Column { Trial, Status, Node, Iteration, Latest, Best, Runtime, FirstExtra };

    explicit TrialTableModel(const ExperimentData* data, QObject* parent = nullptr);

    // Applies what changed in the data since the last call (rows added, values changed).
    void refresh(const ExperimentData::Changes& changes);
    // Whether refresh(changes) resets the model (a new column), which clears a view's selection.
    bool refreshResets(const ExperimentData::Changes& changes) const;
    // After ExperimentData::clear() or a new objective: everything anew.
    void reset();
    QString trialAt(int row) const;
    // The Note column, FirstExtra; -1 while no trial has a note.
    int noteColumn() const;
    // The Pareto front column, after the Note column; -1 with one objective.
    int frontColumn() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QColor statusColor(const QString& status);
    // A trial's status (PENDING, RUNNING, ...) in the window's language; Ray's upper-case words
    // in English.
    static QString statusText(const QString& status);
    // The Status cell of a trial a scheduler stopped early: "stopped by ASHA at 6".
    static QString earlyStopCellText(const EarlyStop& stop);

  private:
    int firstMetricColumn() const;  // FirstExtra, or after the Note and front columns

    const ExperimentData* data_;
    int rows_ = 0;
    QStringList metricKeys_;  // the metrics with a column: all but the objective
    QStringList configKeys_;
    int shownBest_ = -1;           // the row painted bold
    bool notes_ = false;           // a trial has a note: the Note column is there
    bool front_ = false;           // several objectives: the Pareto front column is there
    std::vector<int> shownFront_;  // the rows painted as the front's
};

// Sorting by value, and a search over every column plus a status filter.
class TrialFilter : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit TrialFilter(QObject* parent = nullptr);
    void setSearch(const QString& text);
    // Empty: all; otherwise a status, or EARLY_STOPPED (the Status column's Qt::UserRole).
    void setStatus(const QString& status);
    // Only these trials (the ones inside the parallel coordinates' brushes); nullopt: all.
    void setTrials(std::optional<QSet<QString>> trials);
    bool limitedToTrials() const { return trials_.has_value(); }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    QString search_;
    QString status_;
    std::optional<QSet<QString>> trials_;
};

}  // namespace tunedeck::app
