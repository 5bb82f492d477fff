"""Ray Tune's module of the same name."""
from ray.tune._results import TuneError  # noqa: F401
