"""Ray Tune 1.x's name of ray.tune.search.bayesopt."""
from ray.tune.search.bayesopt import *  # noqa: F401,F403
