"""Ray Tune 1.x's name of ray.tune.search.nevergrad."""
from ray.tune.search.nevergrad import *  # noqa: F401,F403
