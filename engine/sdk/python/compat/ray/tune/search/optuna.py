"""Ray Tune's OptunaSearch, mapped onto Tunedeck's searchers (_algorithms.py)."""
from ray.tune.search._algorithms import OptunaSearch  # noqa: F401
