"""Ray Tune 1.x's name of ray.tune.search.optuna."""
from ray.tune.search.optuna import *  # noqa: F401,F403
