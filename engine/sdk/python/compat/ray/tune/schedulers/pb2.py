"""Ray Tune's module of the same name."""
from ray.tune.schedulers import PB2  # noqa: F401
