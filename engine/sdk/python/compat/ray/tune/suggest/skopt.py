"""Ray Tune 1.x's name of ray.tune.search.skopt."""
from ray.tune.search.skopt import *  # noqa: F401,F403
