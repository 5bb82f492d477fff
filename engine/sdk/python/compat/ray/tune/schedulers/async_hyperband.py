"""Ray Tune's module of the same name."""
from ray.tune.schedulers import ASHAScheduler, AsyncHyperBandScheduler  # noqa: F401
