"""Ray Tune's SkOptSearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

SkOptSearch = unsupported_searcher("SkOptSearch")
