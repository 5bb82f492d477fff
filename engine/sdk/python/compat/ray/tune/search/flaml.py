"""Ray Tune's BlendSearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

BlendSearch = unsupported_searcher("BlendSearch")
