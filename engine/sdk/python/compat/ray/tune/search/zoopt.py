"""Ray Tune's ZOOptSearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

ZOOptSearch = unsupported_searcher("ZOOptSearch")
