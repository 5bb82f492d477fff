"""Picks a classifier and its settings for a small two-class problem with Optuna: the classifier
is a categorical parameter, and each classifier has parameters of its own. Each trial trains for
a number of epochs, reports its validation error after each, and gives up when the median rule
says so."""
import json
import math
import random

import optuna

EPOCHS = 12


def make_data(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        x = (rng.gauss(0, 1), rng.gauss(0, 1))
        label = 1 if x[0] + 0.5 * x[1] + rng.gauss(0, 0.4) > 0 else 0
        rows.append((x, label))
    return rows


TRAIN, VALID = make_data(300, 1), make_data(200, 2)


def error_rate(predict):
    return sum(predict(x) != y for x, y in VALID) / len(VALID)


def logistic(trial):
    lr = trial.suggest_float("logistic_lr", 1e-4, 1.0, log=True)
    l2 = trial.suggest_float("logistic_l2", 0.0, 0.1)
    w, b = [0.0, 0.0], 0.0
    for epoch in range(EPOCHS):
        for x, y in TRAIN:
            p = 1 / (1 + math.exp(-(w[0] * x[0] + w[1] * x[1] + b)))
            g = p - y
            w = [w[i] - lr * (g * x[i] + l2 * w[i]) for i in range(2)]
            b -= lr * g
        yield epoch, error_rate(lambda x: int(w[0] * x[0] + w[1] * x[1] + b > 0))


def stump(trial):
    # A weak learner on purpose: one feature and a threshold that moves in fixed steps.
    feature = trial.suggest_int("stump_feature", 0, 1)
    step = trial.suggest_float("stump_step", 0.05, 0.5, step=0.05)
    threshold = 2.0
    for epoch in range(EPOCHS):
        threshold -= step
        yield epoch, error_rate(lambda x: int(x[feature] > threshold))


def objective(trial):
    classifier = trial.suggest_categorical("classifier", ["logistic", "stump"])
    error = 1.0
    for epoch, error in (logistic if classifier == "logistic" else stump)(trial):
        trial.report(error, epoch)
        if trial.should_prune():
            raise optuna.TrialPruned()
    trial.set_user_attr("epochs", EPOCHS)
    return error


if __name__ == "__main__":
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        study_name="classifier",
        direction="minimize",
        sampler=optuna.samplers.TPESampler(n_startup_trials=6, seed=11),
        pruner=optuna.pruners.MedianPruner(n_startup_trials=2, n_warmup_steps=3),
    )
    study.optimize(objective, n_trials=14, timeout=300)

    states = [t.state.name for t in study.trials]
    print("Trials:", len(study.trials))
    print("Complete:", states.count("COMPLETE"), "Pruned:", states.count("PRUNED"))
    print("Best params:", json.dumps(study.best_params, sort_keys=True))
    print("Best value: %.4f" % study.best_value)
    print("Best trial:", study.best_trial.number, study.best_trial.user_attrs)
    frame = study.trials_dataframe()
    print("Dataframe rows:", len(frame), "columns:", ",".join(sorted(frame.columns)))
