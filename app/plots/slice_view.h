// The slice plot (optuna-dashboard's): the trials' values against each parameter, one panel per
// parameter that varies, or the one picked. Choice parameters sit on categories (a small fixed
// jitter per trial keeps equal points apart), numbers spanning decades on a log axis
// (charts/parameter_scale.h, as the other analyses place them); points coloured by trial
// number, so where the search went late shows. Thread-safety: GUI thread only.
#pragma once

#include <vector>

#include "plots/plot_axis.h"
#include "plots/study_plot.h"

class QComboBox;

namespace tunedeck::app {

class SliceView : public StudyPlot {
    Q_OBJECT
  public:
    explicit SliceView(const ExperimentData* data, QWidget* parent = nullptr);

    // One panel per parameter shown: its x axis and a point per trial that has the parameter and
    // a value (x: the number, or the category's index plus jitter; y: the value).
    struct Panel {
        QString key;
        PlotAxis x;
        PlotAxis y;
        std::vector<QPointF> points;
        std::vector<int> rows;  // the trial of each point
    };
    const std::vector<Panel>& panels() const { return panels_; }
    QComboBox* parameterBox() const { return parameters_; }
    // "" for every parameter that varies, else one key.
    void setParameter(const QString& key);

  protected:
    void recompute() override;
    void paintPlot(QPainter& painter) override;
    QString trialAt(QPointF pos) const override;

  private:
    QRectF panelRect(int index) const;

    QComboBox* parameters_ = nullptr;
    QStringList keys_;
    std::vector<Panel> panels_;
    int trialCount_ = 0;
};

}  // namespace tunedeck::app
