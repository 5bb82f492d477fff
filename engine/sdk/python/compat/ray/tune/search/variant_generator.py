"""The part of Ray's variant generator users import directly."""
from ray.tune.search.sample import grid_search  # noqa: F401
