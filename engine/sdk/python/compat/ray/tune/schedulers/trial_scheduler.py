"""Ray Tune's module of the same name."""
from ray.tune.schedulers import TrialScheduler, FIFOScheduler  # noqa: F401
