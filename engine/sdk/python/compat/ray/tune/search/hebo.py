"""Ray Tune's HEBOSearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

HEBOSearch = unsupported_searcher("HEBOSearch")
