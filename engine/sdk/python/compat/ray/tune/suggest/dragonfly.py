"""Ray Tune 1.x's name of ray.tune.search.dragonfly."""
from ray.tune.search.dragonfly import *  # noqa: F401,F403
