// A distribution a running trial asks a value of, define-by-run (Optuna's trial.suggest_*): the
// `distribution` of a `suggest` line of the trial channel (engine/sdk/PROTOCOL.md). Optuna's three
// kinds, with Optuna's meaning, so a value is exactly what Optuna's own sampler could give:
//  * float: [low, high]; `log` draws in log space; `step` gives low + k * step <= high;
//  * int: low, low + step, ... <= high (both ends included); `log` in log space (step 1);
//  * categorical: one of `choices` (JSON scalars).
// Pure value type.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

#include "core/parzen_estimator.h"
#include "core/rng.h"
#include "core/status.h"

namespace tunedeck {

struct SuggestedDistribution {
    enum class Kind { Float, Int, Categorical };
    Kind kind = Kind::Float;
    double low = 0;
    double high = 0;
    double step = 0;  // 0: none (float); int steps are >= 1
    bool log = false;
    QJsonArray choices;

    // Reads {"type": "float"|"int"|"categorical", "low", "high", "step", "log", "choices"}; the
    // message names what is wrong, in Optuna's words where Optuna has them.
    static Status fromJson(const QJsonObject& object, SuggestedDistribution* out);
    QJsonObject toJson() const;
    // "float [0.001, 0.1] log", "int [1, 8] step 2", "categorical ['a', 'b']".
    QString describe() const;

    bool operator==(const SuggestedDistribution& other) const;
    // Optuna's check_distribution_compatibility: another kind, or other categorical choices,
    // under a name already known is an error; other bounds of the same kind are not.
    Status compatibleWith(const SuggestedDistribution& known) const;

    // One value drawn uniformly (in log space for `log`), as Optuna's RandomSampler.
    QJsonValue sample(Rng& rng) const;
    // The model space of the tpe searcher (Optuna's internal representation): the value in it,
    // nullopt when `value` is not one this distribution can hold the place of (not a number,
    // not one of the choices); numbers outside the bounds are clamped in.
    tpe::Axis axis() const;
    std::optional<double> toModel(const QJsonValue& value) const;
    // The value a draw of an estimator on axis() stands for (rounded to the step, kept inside).
    QJsonValue fromModel(double draw) const;

  private:
    double lastValue() const;  // the largest value on the step's grid (high without a step)
};

// The random stream of the value of parameter `name` of the `index`-th trial: it depends on
// nothing else (not on the order the trial asks for its parameters), so a retried attempt and
// a resumed run draw the same.
Rng parameterStream(std::uint64_t seed, std::int64_t index, const QString& name);

}  // namespace tunedeck
