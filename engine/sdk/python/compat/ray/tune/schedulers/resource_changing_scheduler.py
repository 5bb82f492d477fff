"""Ray Tune's module of the same name."""
from ray.tune.schedulers import ResourceChangingScheduler, DistributeResources, DistributeResourcesToTopJob  # noqa: F401
