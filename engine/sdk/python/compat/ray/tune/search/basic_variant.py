"""Ray Tune's BasicVariantGenerator, mapped onto Tunedeck's searchers (_algorithms.py)."""
from ray.tune.search._algorithms import BasicVariantGenerator  # noqa: F401
