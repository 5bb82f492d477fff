// Hyperparameter importance for the experiment's metric, as a horizontal bar per parameter,
// largest on top, like Optuna's dashboard.
//
// Which importance: the mean decrease in impurity (MDI) of a random forest (RandomForest, 64
// trees, Optuna's MeanDecreaseImpurityImportanceEvaluator settings) fitted to the finished
// trials' best metric: how much of the metric's variance the splits on each parameter remove,
// summed over the trees and normalised to 1. fANOVA (Hutter et al., 2014; Optuna's default
// evaluator) fits the same kind of forest but then integrates its prediction over the whole
// search space and attributes the variance of that function to each parameter's marginal. MDI is
// cheaper (no integration over the space) and needs nothing but the samples, but it measures
// the trials that were run rather than the space: a searcher that sampled one region densely
// weighs that region, and it favours continuous parameters (many split points) over ones with
// few values; fANOVA also separates interactions of parameters, MDI folds them into each.
//
// The forest is fitted a few trees per event-loop turn (at most ~8 ms each), at most once a
// second and only when the finished trials changed, so the GUI thread never waits for it.
// Thread-safety: GUI thread only.
#pragma once

#include <QTimer>
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/importance_input.h"
#include "analysis/random_forest.h"
#include "charts/refresh_throttle.h"
#include "models/experiment_data.h"

class QBarCategoryAxis;
class QBarSet;
class QChartView;
class QHorizontalBarSeries;
class QLabel;
class QStackedWidget;
class QValueAxis;

namespace tunedeck::app {

class ImportanceView : public QWidget {
    Q_OBJECT
  public:
    // Fewer finished trials than this say nothing about importance; Optuna needs two, but a
    // forest on fewer than five points ranks noise.
    static constexpr int kMinTrials = 5;

    explicit ImportanceView(const ExperimentData* data, QWidget* parent = nullptr);

    // The data changed: a new fit starts now, or once the throttle's interval has passed, if
    // the finished trials differ from those of the last fit; while hidden, when shown again.
    void refresh();

    // What the chart shows, largest first; empty while there is too little to fit.
    const std::vector<ParameterImportance>& importances() const { return shown_; }
    // The text shown instead of the chart (too few trials, no parameter varies), or empty.
    QString message() const;
    bool computing() const { return forest_ != nullptr; }
    // Trials the shown importances were fitted to.
    int fittedTrials() const { return fittedTrials_; }
    QChartView* chartView() const { return view_; }

  signals:
    // A fit finished and the chart shows its result (or the message changed).
    void importancesChanged();

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void startFit();
    void growSome();
    void showImportances(std::vector<ParameterImportance> importances, int trials);
    void showMessage(const QString& text);

    const ExperimentData* data_;
    RefreshThrottle throttle_;
    bool stale_ = true;
    std::unique_ptr<RandomForest> forest_;  // the fit under way
    QTimer grow_;
    ImportanceInput input_;
    std::vector<double> fitted_;  // rows and targets of the last fit, to skip an equal one
    std::vector<ParameterImportance> shown_;
    int fittedTrials_ = 0;
    QStackedWidget* pages_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* note_ = nullptr;
    QChartView* view_ = nullptr;
    QHorizontalBarSeries* series_ = nullptr;
    QBarSet* bars_ = nullptr;
    QBarCategoryAxis* names_ = nullptr;
    QValueAxis* values_ = nullptr;
};

}  // namespace tunedeck::app
