"""Ray Tune's HyperOptSearch, mapped onto Tunedeck's searchers (_algorithms.py)."""
from ray.tune.search._algorithms import HyperOptSearch  # noqa: F401
