"""Ray Tune's NevergradSearch: refused with a message when used."""
from ray.tune.search._algorithms import unsupported_searcher

NevergradSearch = unsupported_searcher("NevergradSearch")
