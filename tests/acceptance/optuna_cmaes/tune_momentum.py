"""Tunes gradient descent with momentum on a narrow valley with Optuna's CMA-ES sampler: the
step size (log scale) and the momentum are continuous, the schedule is a choice, and the cosine
schedule has a warm-up of its own."""
import json
import math

import optuna

STEPS = 60


def descend(lr, momentum, schedule, warmup):
    # f(x, y) = 0.5 * (x^2 + 25 y^2), started at (3, 1): narrow along y.
    x, y, vx, vy = 3.0, 1.0, 0.0, 0.0
    for step in range(STEPS):
        scale = 1.0
        if schedule == "cosine":
            scale = min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / STEPS))
        vx = momentum * vx - lr * scale * x
        vy = momentum * vy - lr * scale * 25 * y
        x, y = x + vx, y + vy
        if abs(x) + abs(y) > 1e6:
            return 1e6
    return 0.5 * (x * x + 25 * y * y)


def objective(trial):
    lr = trial.suggest_float("lr", 1e-4, 0.2, log=True)
    momentum = trial.suggest_float("momentum", 0.0, 0.99)
    schedule = trial.suggest_categorical("schedule", ["constant", "cosine"])
    warmup = trial.suggest_int("warmup", 1, 20) if schedule == "cosine" else 1
    return math.log10(descend(lr, momentum, schedule, warmup) + 1e-12)


if __name__ == "__main__":
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.CmaEsSampler(seed=5, n_startup_trials=4))
    study.optimize(objective, n_trials=32)

    print("Sampler:", type(study.sampler).__name__)
    print("Trials:", len(study.trials))
    print("Best params:", json.dumps(study.best_params, sort_keys=True))
    print("Best value: %.4f" % study.best_value)
