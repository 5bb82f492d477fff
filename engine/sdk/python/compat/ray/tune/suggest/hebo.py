"""Ray Tune 1.x's name of ray.tune.search.hebo."""
from ray.tune.search.hebo import *  # noqa: F401,F403
