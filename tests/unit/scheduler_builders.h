// Builders shared by the scheduler unit tests: an experiment spec that picks a scheduler with
// given options, and the scheduler it makes once validated (null, with the reason logged, when
// the options are refused).
#pragma once

#include <QJsonObject>
#include <QString>
#include <QtGlobal>
#include <memory>

#include "core/experiment_spec.h"
#include "core/scheduler.h"

inline tunedeck::ExperimentSpec schedulerSpec(const QString& scheduler, QJsonObject options,
                                              const QString& metric, tunedeck::MetricMode mode) {
    tunedeck::ExperimentSpec spec;
    spec.metric = metric;
    spec.mode = mode;
    spec.objectives = {{metric, mode}};
    spec.seed = 11;
    spec.scheduler.name = scheduler;
    spec.scheduler.options = std::move(options);
    return spec;
}

inline std::unique_ptr<tunedeck::Scheduler> makeValidated(const tunedeck::ExperimentSpec& spec) {
    const tunedeck::Status status = tunedeck::validateScheduler(spec, nullptr);
    if (!status.isOk()) {
        qWarning("%s", qPrintable(status.message()));
        return nullptr;
    }
    return tunedeck::makeScheduler(spec);
}
