"""Connects to a running Ray cluster before tuning, as scripts written for a Ray cluster do."""
import ray
from ray import tune


def objective(config):
    tune.report(score=config["x"])


ray.init(address="ray://head.example.org:10001")
tune.run(objective, config={"x": tune.uniform(0, 1)}, num_samples=2)
