"""Ray Tune's module of the same name."""
from ray.tune._results import ExperimentAnalysis  # noqa: F401
