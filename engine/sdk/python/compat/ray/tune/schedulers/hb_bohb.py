"""Ray Tune's module of the same name."""
from ray.tune.schedulers import HyperBandForBOHB  # noqa: F401
