"""Ray Tune 1.x's name of ray.tune.search.flaml."""
from ray.tune.search.flaml import *  # noqa: F401,F403
