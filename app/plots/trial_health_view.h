// The system health of the trials whose curves are shown, drawn under the curves: each trial's
// CPU (percent of one core), resident memory and, where it ran on a node with GPUs, GPU memory
// over time, a panel each, one line per trial in the colour of its curve, and a line of text
// with each trial's peaks. Up to kMostTrials trials: the chosen ones, or without a choice those
// sampled last. Redrawn at most four times a second. Thread-safety: GUI thread only.
#pragma once

#include <QStringList>
#include <QWidget>
#include <set>
#include <vector>

#include "charts/refresh_throttle.h"
#include "models/experiment_data.h"
#include "models/trial_health.h"
#include "plots/plot_axis.h"

class QLabel;
class QPainter;

namespace tunedeck::app {

class HealthLine;
class PlotCanvas;

class TrialHealthView : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kMostTrials = 8;

    TrialHealthView(const TrialHealthModel* health, const ExperimentData* data,
                    QWidget* parent = nullptr);

    // The trials whose curves are shown (empty, or only "": none chosen).
    void setTrials(const std::set<QString>& trialIds);
    // New samples came: redrawn now or once the throttle's interval has passed.
    void refresh();
    // Recomputes at once (the tests).
    void recomputeNow();
    // The trials drawn, in legend order.
    const QStringList& shownTrials() const { return shown_; }
    // The line over the panels ("t00003: CPU up to 98% of a core, memory up to 212 MiB").
    QString legend() const;
    // The part of it the line shows at its width: whole trials, then how many more.
    QString shownLegend() const;

  private:
    struct Panel {
        QString title;
        double HealthPoint::*value;
        PlotAxis y;
    };

    void recompute();
    void paintPanels(QPainter& painter);

    const TrialHealthModel* health_;
    const ExperimentData* data_;
    std::set<QString> chosen_;
    QStringList shown_;
    std::vector<Panel> panels_;
    PlotAxis x_;
    double t0_ = 0;
    HealthLine* legend_;
    PlotCanvas* canvas_;
    RefreshThrottle throttle_;
};

}  // namespace tunedeck::app
