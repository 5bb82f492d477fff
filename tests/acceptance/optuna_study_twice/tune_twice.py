"""Looks for the minimum of a bumpy function in two rounds of the same study: a first look,
then more trials that build on what the first round found. A guess from a notebook is tried
first in each round (enqueued)."""
import json
import math

import optuna


def objective(trial):
    x = trial.suggest_float("x", -4.0, 4.0)
    width = trial.suggest_int("width", 1, 8)
    trial.set_user_attr("number_seen", trial.number)
    return (x - 1.5) ** 2 + 0.3 * math.sin(5 * x) + 0.05 * (width - 3) ** 2


if __name__ == "__main__":
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name="twice",
                                sampler=optuna.samplers.TPESampler(n_startup_trials=5, seed=3))
    study.enqueue_trial({"x": 1.4, "width": 3}, user_attrs={"source": "notebook"})
    study.optimize(objective, n_trials=6)
    print("After the first round:", len(study.trials), "trials, best %.6f" % study.best_value)
    study.enqueue_trial({"x": 1.6})
    study.optimize(objective, n_trials=6)
    print("After the second round:", len(study.trials), "trials, best %.6f" % study.best_value)
    print("Numbers:", json.dumps([t.number for t in study.trials]))
    print("Values:", json.dumps([t.value for t in study.trials]))
    print("Trials:", json.dumps([{"number": t.number, "state": t.state.name, "params": t.params,
                                  "user_attrs": t.user_attrs} for t in study.trials]))
