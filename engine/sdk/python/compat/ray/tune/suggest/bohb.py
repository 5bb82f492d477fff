"""Ray Tune 1.x's name of ray.tune.search.bohb."""
from ray.tune.search.bohb import *  # noqa: F401,F403
