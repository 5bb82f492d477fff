"""Ray Tune's DragonflySearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

DragonflySearch = unsupported_searcher("DragonflySearch")
