"""Ray Tune's module of the same name."""
from ray.tune._results import ResultGrid  # noqa: F401
