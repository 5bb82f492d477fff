// The curves of a metric other than the objective, picked over the Curves tab: the same trials
// as the open experiment, read from its folder (as when it was opened), then kept up by the
// events that come after; the events that come while the folder is read are applied on top of
// what it held. Only the curves follow the pick: the bold row, the objective's columns and
// every ranking stay the objective's. Thread-safety: GUI thread only.
#pragma once

#include <QObject>
#include <vector>

#include "models/experiment_data.h"
#include "session/latest_read.h"

namespace tunedeck::app {

class PickedMetricCurves : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;

    // `metric` of the experiment in `folder` (minimised when `minimize`); empty: none picked.
    void pick(const QString& metric, const QString& folder, bool minimize);
    void clear() { pick({}, {}, false); }
    void apply(const events::Event& event);
    QString metric() const { return metric_; }
    // The picked metric's curves; nullptr while none is picked.
    ExperimentData* curves() { return metric_.isEmpty() ? nullptr : &data_; }

  signals:
    void changed();  // read in whole: the chart shows them anew
    void problem(const QString& message);

  private:
    ExperimentData data_;
    QString metric_;
    LatestRead read_;
    std::vector<events::Event> early_;  // came while the folder was read
};

}  // namespace tunedeck::app
