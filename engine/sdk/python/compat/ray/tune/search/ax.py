"""Ray Tune's AxSearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

AxSearch = unsupported_searcher("AxSearch")
