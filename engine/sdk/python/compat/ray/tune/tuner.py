"""Ray Tune's module of the same name."""
from ray.tune._driver import Tuner  # noqa: F401
