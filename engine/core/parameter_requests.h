// The `suggest` lines of running trials (define-by-run, Optuna's trial.suggest_*; the trial
// channel of engine/sdk/PROTOCOL.md): each asks a value of a named distribution. A name the trial
// already has is answered with its value; a new one with the searcher's, which is added to the
// trial's config. The distributions the experiment has seen are kept by name, and one that
// clashes with them (another kind, other categorical choices) is refused as Optuna refuses it.
// Pure; not thread-safe (the experiment loop's thread).
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <map>

#include "core/searcher.h"
#include "core/suggested_distribution.h"
#include "core/trial.h"

namespace tunedeck {

class ParameterRequests {
  public:
    // `algorithm`: the search algorithm's name, for the message when it cannot answer.
    explicit ParameterRequests(QString algorithm) : algorithm_(std::move(algorithm)) {}

    // The answer to `trial`'s request for `name` of `distribution` (the line's fields as
    // written): {"action": "value", "value": V}, or {"action": "error", "message": M} when the
    // request is wrong or cannot be answered (the trial raises it, as Optuna raises ValueError).
    // A new parameter is put into trial.config and *added set.
    QJsonObject answer(Searcher& searcher, Trial& trial, const QJsonValue& name,
                       const QJsonValue& distribution, bool* added);

    // The distribution last asked for under `name`, if any.
    const SuggestedDistribution* known(const QString& name) const;

  private:
    QString algorithm_;
    std::map<QString, SuggestedDistribution> known_;
};

}  // namespace tunedeck
