"""A Ray Tune 2.x script with a class Trainable: data passed with tune.with_parameters,
resources with tune.with_resources, HyperBand (which pauses trials and resumes them from their
dict checkpoints) and HyperOptSearch."""
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


if __name__ == "__main__":
    points = [(x / 10.0, 3 * x / 10.0) for x in range(1, 11)]
    trainable = tune.with_resources(tune.with_parameters(Regressor, data=points), {"cpu": 1})
    tuner = tune.Tuner(
        trainable,
        param_space={"lr": tune.uniform(0.01, 0.5)},
        tune_config=tune.TuneConfig(
            metric="mse", mode="min", num_samples=6,
            scheduler=HyperBandScheduler(max_t=9, reduction_factor=3),
            search_alg=HyperOptSearch(n_initial_points=3, random_state_seed=5)),
        run_config=air.RunConfig(name="regressor_hb", verbose=0),
    )
    grid = tuner.fit()
    best = grid.get_best_result(scope="last")
    print("best lr: %.4f" % best.config["lr"])
    print("best mse: %.6f" % best.metrics["mse"])
    print("curve length:", len(best.metrics_dataframe))
