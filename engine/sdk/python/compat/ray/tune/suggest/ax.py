"""Ray Tune 1.x's name of ray.tune.search.ax."""
from ray.tune.search.ax import *  # noqa: F401,F403
