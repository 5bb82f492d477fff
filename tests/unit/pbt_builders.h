// Builders shared by the pbt scheduler's unit tests (test_pbt, test_pbt_options): the search
// space, the mutations and the experiment spec of a pbt run with Ray's usual options.
#pragma once

#include <QJsonObject>

#include "core/experiment_spec.h"
#include "scheduler_builders.h"
#include "space_builders.h"

namespace tunedeck::testing {

inline SearchSpace defaultSpace() {
    return space({param("lr", loguniform(0.0001, 1)), param("batch", choice({16, 32, 64, 128})),
                  constant("epochs", 10)});
}

inline SearchSpace defaultMutations() {
    return space({param("lr", loguniform(0.0001, 1)), param("batch", choice({16, 32, 64, 128}))});
}

inline QJsonObject withDefaults(QJsonObject options) {
    if (!options.contains("time_attr")) {
        options.insert("time_attr", "training_iteration");
    }
    if (!options.contains("perturbation_interval")) {
        options.insert("perturbation_interval", 4);
    }
    return options;
}

inline ExperimentSpec pbtSpec(QJsonObject options = {}, SearchSpace mutations = defaultMutations(),
                              SearchSpace searchSpace = defaultSpace(),
                              const QString& metric = "acc", MetricMode mode = MetricMode::Max) {
    ExperimentSpec spec =
        schedulerSpec(QStringLiteral("pbt"), withDefaults(std::move(options)), metric, mode);
    spec.searchSpace = std::move(searchSpace);
    spec.scheduler.mutations = std::move(mutations);
    return spec;
}

}  // namespace tunedeck::testing
