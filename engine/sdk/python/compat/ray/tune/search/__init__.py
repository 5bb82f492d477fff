"""Ray Tune's `ray.tune.search` (and its older name `ray.tune.suggest`)."""
from ray.tune.search._algorithms import (  # noqa: F401
    BasicVariantGenerator,
    ConcurrencyLimiter,
    Repeater,
    Searcher,
)
from ray.tune.search.sample import (  # noqa: F401
    choice,
    grid_search,
    loguniform,
    qloguniform,
    qrandint,
    qrandn,
    quniform,
    randint,
    randn,
    sample_from,
    uniform,
)
