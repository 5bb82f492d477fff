"""Ray Tune 1.x's name of ray.tune.search."""
from ray.tune.search import *  # noqa: F401,F403
from ray.tune.search import BasicVariantGenerator, ConcurrencyLimiter, Repeater, Searcher  # noqa: F401
