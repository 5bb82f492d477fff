"""Ray Tune's BayesOptSearch, mapped onto Tunedeck's searchers (_algorithms.py)."""
from ray.tune.search._algorithms import BayesOptSearch  # noqa: F401
