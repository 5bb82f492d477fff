"""Ray Tune's module of the same name."""
from ray.tune._results import Result  # noqa: F401
