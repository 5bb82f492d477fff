"""Ray Tune 1.x's name of ray.tune.search.hyperopt."""
from ray.tune.search.hyperopt import *  # noqa: F401,F403
