"""Ray Tune 1.x's name of ray.tune.search.variant_generator."""
from ray.tune.search.variant_generator import *  # noqa: F401,F403
