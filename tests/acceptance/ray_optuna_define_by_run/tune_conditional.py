"""A Ray Tune 2.x script with OptunaSearch's define-by-run space: the model is a choice, and the
MLP has a hidden width of its own (a conditional parameter, named with '/' so the config nests);
the define-by-run function returns the number of epochs as a constant."""
import json
import math

from ray import train, tune
from ray.tune.search import ConcurrencyLimiter
from ray.tune.search.optuna import OptunaSearch


def define_space(trial):
    trial.suggest_float("lr", 1e-3, 1e-1, log=True)
    model = trial.suggest_categorical("model", ["linear", "mlp"])
    if model == "mlp":
        trial.suggest_int("mlp/hidden", 4, 64, log=True)
    return {"epochs": 4}


def train_model(config):
    # A stand-in for a validation loss: best near lr = 0.02; the MLP does better, the wider the
    # better up to 32.
    capacity = 1.0
    if config["model"] == "mlp":
        capacity = 0.6 + 0.2 * abs(math.log2(config["mlp"]["hidden"] / 32)) / 3
    for epoch in range(config["epochs"]):
        loss = capacity * (1 + abs(math.log10(config["lr"] / 0.02))) / (epoch + 1)
        train.report({"loss": loss, "epoch": epoch})


if __name__ == "__main__":
    search = OptunaSearch(space=define_space, metric="loss", mode="min", seed=4)
    tuner = tune.Tuner(train_model,
                       tune_config=tune.TuneConfig(search_alg=ConcurrencyLimiter(search, 2),
                                                   num_samples=8))
    results = tuner.fit()
    for result in results:
        print("Config:", json.dumps(result.config, sort_keys=True))
    best = results.get_best_result(metric="loss", mode="min")
    print("Best config:", json.dumps(best.config, sort_keys=True))
    print("Best loss: %.6f" % best.metrics["loss"])
