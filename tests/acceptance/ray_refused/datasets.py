"""Feeds trials from a Ray Dataset."""
import ray.data
from ray import train, tune

dataset = ray.data.range(100)


def objective(config):
    train.report({"rows": dataset.count()})


tune.Tuner(objective).fit()
