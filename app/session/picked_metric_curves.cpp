#include "session/picked_metric_curves.h"

#include <QFileInfo>
#include <memory>

#include "models/history_reader.h"

namespace tunedeck::app {

void PickedMetricCurves::pick(const QString& metric, const QString& folder, bool minimize) {
    read_.drop();
    early_.clear();
    data_.clear();
    metric_ = metric;
    if (metric_.isEmpty()) {
        emit changed();
        return;
    }
    data_.setObjective(metric_, minimize);
    emit changed();
    if (!QFileInfo::exists(folder + QStringLiteral("/experiment.sqlite"))) {
        return;  // a server's folder: the curves grow from the results that come from now on
    }
    auto history = std::make_shared<History>();
    auto error = std::make_shared<QString>();
    read_.start(
        this,
        [folder, metric, history, error] {
            readHistory(folder, history.get(), error.get(), metric);
        },
        [this, history, error] {
            if (!error->isEmpty()) {
                emit problem(*error);
                return;
            }
            data_.load(std::move(history->trials), std::move(history->exploits), history->status,
                       history->startTime);
            for (const events::Event& event : early_) {
                if (event.seq > history->lastSeq) {
                    data_.apply(event);
                }
            }
            early_.clear();
            emit changed();
        });
}

void PickedMetricCurves::apply(const events::Event& event) {
    if (metric_.isEmpty()) {
        return;
    }
    if (read_.underWay()) {
        early_.push_back(event);
    } else {
        data_.apply(event);
    }
}

}  // namespace tunedeck::app
