// The PBT lineage view: one top-level row per trial that copied another (best first), showing
// the chain of trials its weights came through ("t3 ← t1 ← t0"); expanded, one row per copy,
// latest first, with the iteration, the trial and iteration copied from, and the hyperparameters
// the exploit changed (old → new). Rows are filled in when expanded, so a long PBT run with
// thousands of exploits costs one row per trial until the user looks closer. Without exploits it
// says so instead. Thread-safety: GUI thread only.
#pragma once

#include <QWidget>
#include <memory>
#include <set>
#include <utility>

#include "analysis/lineage.h"
#include "charts/refresh_throttle.h"
#include "models/experiment_data.h"

class QLabel;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace tunedeck::app {

class LineageView : public QWidget {
    Q_OBJECT
  public:
    enum Column { TrialColumn, IterationColumn, FromColumn, ChangesColumn, BestColumn };

    explicit LineageView(const ExperimentData* data, QWidget* parent = nullptr);

    // The data changed: rows rebuilt when exploits arrived, their best values updated otherwise;
    // at most twice a second; while hidden, when shown again.
    void refresh();
    // Selects, expands and scrolls to these trials' rows.
    void setSelectedTrials(const QStringList& ids);

    QStringList chainOf(const QString& trialId) const;
    // Whether the tree is shown (there are exploits) rather than the message.
    bool hasLineage() const;
    QString message() const;
    QTreeWidget* tree() const { return tree_; }
    QTreeWidgetItem* itemOf(const QString& trialId) const;

  signals:
    void trialClicked(const QString& trialId);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void refreshNow();
    std::pair<std::size_t, qint64> seenNow() const;
    void rebuild();
    void updateTopLevel();
    void fillSteps(QTreeWidgetItem* item);

    const ExperimentData* data_;
    RefreshThrottle throttle_;
    bool stale_ = true;
    // The exploits the rows show: their count and the last one's sequence number (another
    // experiment with as many exploits is still another lineage).
    std::pair<std::size_t, qint64> exploitsSeen_{0, 0};
    std::unique_ptr<Lineage> lineage_;
    std::set<QString> selected_;
    QStackedWidget* pages_ = nullptr;
    QLabel* message_ = nullptr;
    QTreeWidget* tree_ = nullptr;
};

}  // namespace tunedeck::app
