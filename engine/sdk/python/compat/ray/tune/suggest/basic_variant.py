"""Ray Tune 1.x's name of ray.tune.search.basic_variant."""
from ray.tune.search.basic_variant import *  # noqa: F401,F403
