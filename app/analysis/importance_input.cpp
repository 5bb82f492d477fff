#include "analysis/importance_input.h"

#include <algorithm>
#include <cmath>

#include "charts/parameter_scale.h"

namespace tunedeck::app {

namespace {

// More categories than this are coded as one ordinal column: a column per category would make
// the forest's work grow with the categories, and such a parameter is rarely a hyperparameter.
constexpr qsizetype kMaxOneHot = 16;

}  // namespace

ImportanceInput ImportanceInput::of(const ExperimentData& data) {
    ImportanceInput input;
    const std::vector<TrialRow>& trials = data.trials();
    const bool multi = data.isMultiObjective();
    for (std::size_t r = 0; r < trials.size(); ++r) {
        if (trials[r].status != QLatin1String("TERMINATED") || !data.hasEveryObjective(int(r))) {
            continue;
        }
        input.rows.push_back(int(r));
        // The trial's score by the window's scope, as the bold row is chosen; with several
        // objectives, whether it is on the Pareto front (ExperimentData::isBest), so the forest
        // explains what puts a trial on the front rather than the first objective alone.
        input.targets.push_back(multi ? (data.isBest(int(r)) ? 1.0 : 0.0) : data.score(int(r)));
    }
    input.samples.assign(input.rows.size(), {});
    std::vector<QJsonValue> values(input.rows.size());
    for (const QString& key : data.configKeys()) {
        for (std::size_t i = 0; i < input.rows.size(); ++i) {
            values[i] = trials[std::size_t(input.rows[i])].flatConfig.value(key);
        }
        const ParameterScale scale = ParameterScale::of(key, values, data.choices().value(key));
        bool missing = false;
        for (const QJsonValue& value : values) {
            missing = missing || value.isUndefined() || value.isNull();
        }
        if (!scale.varies() && !missing) {
            continue;  // a constant explains nothing
        }
        const int parameter = int(input.parameters.size());
        if (scale.kind == ParameterScale::Kind::Categorical) {
            if (scale.categories.size() == 1 && !missing) {
                continue;
            }
            input.parameters.append(key);
            std::vector<int> codes(values.size());
            for (std::size_t i = 0; i < values.size(); ++i) {
                codes[i] = scale.categoryOf(values[i]);  // -1: absent
            }
            if (scale.categories.size() > kMaxOneHot) {
                input.parameterOfColumn.push_back(parameter);
                for (std::size_t i = 0; i < values.size(); ++i) {
                    input.samples[i].push_back(codes[i]);
                }
                continue;
            }
            for (int c = 0; c < int(scale.categories.size()); ++c) {
                input.parameterOfColumn.push_back(parameter);
                for (std::size_t i = 0; i < values.size(); ++i) {
                    input.samples[i].push_back(codes[i] == c ? 1.0 : 0.0);
                }
            }
        } else {
            if (scale.max == scale.min && !missing) {
                continue;
            }
            input.parameters.append(key);
            input.parameterOfColumn.push_back(parameter);
            const double absent = scale.min - 1.0 - (scale.max - scale.min);
            for (std::size_t i = 0; i < values.size(); ++i) {
                input.samples[i].push_back(values[i].isDouble() ? values[i].toDouble() : absent);
            }
        }
    }
    return input;
}

std::vector<ParameterImportance> ImportanceInput::importances(const RandomForest& forest) const {
    std::vector<ParameterImportance> out;
    for (const QString& parameter : parameters) {
        out.push_back({parameter, 0.0});
    }
    const std::vector<double> columns = forest.importances();
    for (std::size_t c = 0; c < columns.size() && c < parameterOfColumn.size(); ++c) {
        out[std::size_t(parameterOfColumn[c])].importance += columns[c];
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.importance > b.importance; });
    return out;
}

}  // namespace tunedeck::app
