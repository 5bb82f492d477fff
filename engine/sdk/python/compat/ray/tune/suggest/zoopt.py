"""Ray Tune 1.x's name of ray.tune.search.zoopt."""
from ray.tune.search.zoopt import *  # noqa: F401,F403
