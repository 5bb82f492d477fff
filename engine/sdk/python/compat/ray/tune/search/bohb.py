"""Ray Tune's TuneBOHB, mapped onto Tunedeck's searchers (_algorithms.py)."""
from ray.tune.search._algorithms import TuneBOHB  # noqa: F401
