"""A Ray Tune 2.x script with a class Trainable: data passed with tune.with_parameters,
resources with tune.with_resources, HyperBand (which pauses trials and resumes them from their
dict checkpoints), HyperOptSearch, and a Callback counting what it sees."""
from ray import air, tune
from ray.air import session  # noqa: F401  (imported as such scripts do)
from ray.tune.schedulers import HyperBandScheduler
from ray.tune.search.hyperopt import HyperOptSearch


class Regressor(tune.Trainable):
    def setup(self, config, data=None):
        self.data = data
        self.weight = 0.0
        self.lr = config["lr"]

    def step(self):
        # One gradient step of least squares on y = 3x.
        grad = sum(2 * (self.weight * x - y) * x for x, y in self.data) / len(self.data)
        self.weight -= self.lr * grad
        loss = sum((self.weight * x - y) ** 2 for x, y in self.data) / len(self.data)
        return {"mse": loss, "weight": self.weight}

    def save_checkpoint(self, checkpoint_dir):
        return {"weight": self.weight}

    def load_checkpoint(self, checkpoint):
        self.weight = checkpoint["weight"]


class Counts(tune.Callback):
    def __init__(self):
        self.results = 0
        self.completed = set()
        self.ended = False

    def on_trial_result(self, iteration, trials, trial, result, **info):
        self.results += 1
        assert result["config"]["lr"] == trial.config["lr"]

    def on_trial_complete(self, iteration, trials, trial, **info):
        self.completed.add(trial.trial_id)

    def on_experiment_end(self, trials, **info):
        self.ended = True


if __name__ == "__main__":
    counts = Counts()
    points = [(x / 10.0, 3 * x / 10.0) for x in range(1, 11)]
    trainable = tune.with_resources(tune.with_parameters(Regressor, data=points), {"cpu": 1})
    tuner = tune.Tuner(
        trainable,
        param_space={"lr": tune.uniform(0.01, 0.5)},
        tune_config=tune.TuneConfig(
            metric="mse", mode="min", num_samples=6,
            scheduler=HyperBandScheduler(max_t=9, reduction_factor=3),
            search_alg=HyperOptSearch(n_initial_points=3, random_state_seed=5)),
        run_config=air.RunConfig(name="regressor_hb", verbose=0, callbacks=[counts]),
    )
    grid = tuner.fit()
    best = grid.get_best_result(scope="last")
    print("best lr: %.4f" % best.config["lr"])
    print("best mse: %.6f" % best.metrics["mse"])
    print("curve length:", len(best.metrics_dataframe))
    print("callback: %d results, %d trials completed, ended %s"
          % (counts.results, len(counts.completed), counts.ended))
