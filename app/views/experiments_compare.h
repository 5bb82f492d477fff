// Two experiments side by side: each one's best trial (by its own metric and mode, and the scope
// the window ranks by: models/experiment_data.h's bestRowOf), or with several objectives its
// Pareto front (models/pareto_front.h, each objective's range over it), their configs
// diffed row by row, and both best curves on one chart, against iteration. Each experiment is
// read from its own folder's SQLite file on a worker thread (history_reader.h), so a finished,
// a running or a copied experiment compares alike. GUI thread only; bestTrialRows() is pure.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>
#include <memory>

#include "models/history_reader.h"
#include "session/latest_read.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace tunedeck::app {

class CurveOverlay;

// One row of the comparison: a config key (or the metric, the trial, its iteration) and the
// value in each experiment's best trial ("" where that experiment has no such key).
struct ComparedRow {
    QString key;
    QString first;
    QString second;
    bool differs() const { return first != second; }
};

// The best trial of `history` (by its metric and mode, under `scope`), or nullptr when none has
// a value or it has several objectives.
const TrialRow* bestTrialOf(const History& history, ScoreScope scope = kDefaultScoreScope);
// What the window's table marks best in `history` (ExperimentData::isBest): its best trial, or
// with several objectives the trials on its Pareto front under `scope`, in row order.
std::vector<const TrialRow*> bestTrialsOf(const History& history,
                                          ScoreScope scope = kDefaultScoreScope);
// The rows of the comparison of two histories' best trials: trial (or front), metric, score (by
// `scope`; one row per objective, a front's range over it), iteration, then the union of their
// flattened config keys, sorted (of a single best trial only).
QList<ComparedRow> bestTrialRows(const History& first, const History& second,
                                 ScoreScope scope = kDefaultScoreScope);

class ExperimentsCompare : public QDialog {
    Q_OBJECT
  public:
    // `folders` are the experiment folders offered in both pickers; more can be browsed to.
    // `scope`: what the best trials are chosen by (the window's "Best trial by").
    ExperimentsCompare(const QStringList& folders, const QString& first, const QString& second,
                       ScoreScope scope = kDefaultScoreScope, QWidget* parent = nullptr);

    // Reads both folders (again) and shows the comparison when both are read.
    void compare();
    QTableWidget* table() const { return table_; }
    CurveOverlay* chartView() const { return chart_; }

  signals:
    void compared();  // both read and shown (or an error shown); for tests

  private:
    QComboBox* pickerFor(const QStringList& folders, const QString& chosen);
    // Each picker's folders named by what tells them apart, the whole path in the tooltip.
    void relabelPickers();
    void showComparison(const History& first, const History& second);

    QComboBox* first_ = nullptr;
    QComboBox* second_ = nullptr;
    QLabel* message_ = nullptr;
    QTableWidget* table_ = nullptr;
    CurveOverlay* chart_ = nullptr;
    ScoreScope scope_ = kDefaultScoreScope;
    LatestRead read_;  // a newer comparison makes an older read stale
};

}  // namespace tunedeck::app
