"""Starts a Ray actor inside the trainable."""
import ray
from ray import train, tune


@ray.remote
class ParameterServer:
    def get(self):
        return 1


def objective(config):
    server = ParameterServer.remote()
    train.report({"value": ray.get(server.get.remote())})


tune.Tuner(objective, param_space={"x": tune.uniform(0, 1)}).fit()
