"""Ray Tune 1.x's name of ray.tune.search.sample."""
from ray.tune.search.sample import *  # noqa: F401,F403
