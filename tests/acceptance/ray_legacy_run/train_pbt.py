"""A Ray Tune 1.x-style PBT script: a function trainable with tune.report(**kwargs) and
tune.checkpoint_dir, a `checkpoint_dir` argument to resume from, PBT mutations written as
lambdas and lists, and a custom_explore_fn that keeps the explored values where this model
trains."""
import json
import os
import random

from ray import tune
from ray.tune.schedulers import PopulationBasedTraining


def trainable(config, checkpoint_dir=None):
    step, score = 0, 0.0
    if checkpoint_dir:
        with open(os.path.join(checkpoint_dir, "state.json")) as f:
            state = json.load(f)
        step, score = state["step"], state["score"]
    while step < 12:
        step += 1
        # Best with a large lr and momentum 0.9.
        score += config["lr"] * (1.0 - abs(config["momentum"] - 0.9))
        with tune.checkpoint_dir(step=step) as folder:
            with open(os.path.join(folder, "state.json"), "w") as f:
                json.dump({"step": step, "score": score}, f)
        tune.report(score=score, lr=config["lr"], momentum=config["momentum"])


def explore(config):
    # Past 0.08 the steps overshoot, and 0.99 momentum never settles: keep PBT out of both.
    config["lr"] = min(config["lr"], 0.08)
    if config["momentum"] > 0.95:
        config["momentum"] = 0.9
    config["explored"] = config.get("explored", 0) + 1
    print("explored", config)  # a user's debugging print
    return config


if __name__ == "__main__":
    pbt = PopulationBasedTraining(
        time_attr="training_iteration",
        perturbation_interval=3,
        quantile_fraction=0.5,
        synch=True,
        hyperparam_mutations={
            "lr": lambda: random.uniform(0.001, 0.1),
            "momentum": [0.5, 0.7, 0.9, 0.99],
        },
        custom_explore_fn=explore,
    )
    analysis = tune.run(
        trainable,
        name="legacy_pbt",
        config={"lr": tune.uniform(0.001, 0.1), "momentum": tune.choice([0.5, 0.7, 0.9, 0.99])},
        num_samples=4,
        scheduler=pbt,
        metric="score",
        mode="max",
        stop={"training_iteration": 12},
        verbose=1,
    )
    print("best_config:", json.dumps(analysis.best_config, sort_keys=True))
    print("trials:", len(analysis.trials))
