"""Ray Tune's search algorithms as Tunedeck's searchers (engine/config/SCHEMA.md, "search"):
each object keeps its arguments and says which `search:` mapping it stands for. The searching
itself is the engine's (its tpe is Optuna's TPESampler, its bayesopt Ray's BayesOptSearch, ...)."""

from ray import unsupported


class Searcher:
    """Base of the search algorithms; a user's own subclass (suggest/on_trial_complete written
    in Python) cannot be run by the engine and is refused."""

    algorithm = None

    def __init__(self, metric=None, mode=None, points_to_evaluate=None, evaluated_rewards=None,
                 **options):
        self.metric, self.mode = metric, mode
        self.points_to_evaluate = points_to_evaluate
        self.evaluated_rewards = evaluated_rewards
        self.options = options
        self.space = None  # a search space given to the searcher (param_space form)

    def set_search_properties(self, metric, mode, config, **spec):
        self.metric = self.metric or metric
        self.mode = self.mode or mode
        return True

    def tunedeck_search(self):
        if self.algorithm is None:
            unsupported("a custom Searcher (%s)" % type(self).__name__,
                        "use one of Tunedeck's searchers: BasicVariantGenerator, OptunaSearch, "
                        "HyperOptSearch, BayesOptSearch, TuneBOHB")
        search = {"algorithm": self.algorithm}
        if self.points_to_evaluate:
            search["points_to_evaluate"] = list(self.points_to_evaluate)
        if self.evaluated_rewards:
            search["evaluated_rewards"] = list(self.evaluated_rewards)
        search.update({k: v for k, v in self.options.items() if v is not None})
        return search


class BasicVariantGenerator(Searcher):
    algorithm = "random"

    def __init__(self, points_to_evaluate=None, max_concurrent=0, constant_grid_search=False,
                 random_state=None):
        super().__init__(points_to_evaluate=points_to_evaluate,
                         max_concurrent=max_concurrent or None)


def _optuna_space(space):
    """An OptunaSearch `space` of optuna distributions as a param_space of domains."""
    from ray.tune.search import sample

    converted = {}
    for name, dist in space.items():
        kind = type(dist).__name__
        if kind in ("FloatDistribution", "UniformDistribution", "LogUniformDistribution",
                    "DiscreteUniformDistribution"):
            log = getattr(dist, "log", kind == "LogUniformDistribution")
            step = getattr(dist, "step", getattr(dist, "q", None))
            if log:
                converted[name] = sample.loguniform(dist.low, dist.high)
            elif step:
                converted[name] = sample.quniform(dist.low, dist.high, step)
            else:
                converted[name] = sample.uniform(dist.low, dist.high)
        elif kind in ("IntDistribution", "IntUniformDistribution", "IntLogUniformDistribution"):
            log = getattr(dist, "log", kind == "IntLogUniformDistribution")
            step = getattr(dist, "step", 1) or 1
            if log:
                converted[name] = sample.lograndint(dist.low, dist.high + 1)
            elif step != 1:
                converted[name] = sample.qrandint(dist.low, dist.high, step)
            else:
                converted[name] = sample.randint(dist.low, dist.high + 1)
        elif kind == "CategoricalDistribution":
            converted[name] = sample.choice(list(dist.choices))
        else:
            unsupported("OptunaSearch space entry %r (%s)" % (name, kind),
                        "write it with tune.uniform/loguniform/randint/choice")
    return converted


class OptunaSearch(Searcher):
    """Optuna's samplers as the engine's: TPESampler (the default) -> tpe, CmaEsSampler ->
    cmaes, RandomSampler -> random."""

    def __init__(self, space=None, metric=None, mode=None, points_to_evaluate=None,
                 sampler=None, seed=None, evaluated_rewards=None):
        algorithm, options = "tpe", {}
        kind = type(sampler).__name__ if sampler is not None else "TPESampler"
        if kind == "CmaEsSampler":
            algorithm = "cmaes"
        elif kind == "RandomSampler":
            algorithm = "random"
        elif kind == "TPESampler":
            startup = getattr(sampler, "_n_startup_trials", None)
            if isinstance(startup, int):
                options["n_startup_trials"] = startup
        else:
            unsupported("OptunaSearch(sampler=%s)" % kind,
                        "use TPESampler, CmaEsSampler or RandomSampler")
        super().__init__(metric, mode, points_to_evaluate, evaluated_rewards, **options)
        self.algorithm = algorithm
        self.seed = seed
        # A define-by-run function (Ray's conditional spaces): each trial calls it with an Optuna
        # trial whose suggest_* the engine's searcher answers (ray/tune/_trial.py).
        self.define_by_run = space if callable(space) else None
        if space is not None and not callable(space):
            self.space = _optuna_space(space)


class HyperOptSearch(Searcher):
    """hyperopt's TPE as the engine's tpe; n_initial_points is its n_startup_trials."""

    algorithm = "tpe"

    def __init__(self, space=None, metric=None, mode=None, points_to_evaluate=None,
                 n_initial_points=20, random_state_seed=None, gamma=0.25):
        if space is not None:
            unsupported("HyperOptSearch(space=<hyperopt hp.* space>)",
                        "write the space as param_space with tune.uniform/loguniform/choice/... "
                        "(the same domains as hp.uniform/hp.loguniform/hp.choice)")
        super().__init__(metric, mode, points_to_evaluate, None,
                         n_startup_trials=n_initial_points)
        self.seed = random_state_seed


class BayesOptSearch(Searcher):
    algorithm = "bayesopt"

    def __init__(self, space=None, metric=None, mode=None, points_to_evaluate=None,
                 utility_kwargs=None, random_state=42, random_search_steps=10, **kwargs):
        if space is not None:
            unsupported("BayesOptSearch(space=...)",
                        "write the space as param_space with tune.uniform/...")
        super().__init__(metric, mode, points_to_evaluate, None)
        self.seed = random_state


class TuneBOHB(Searcher):
    algorithm = "bohb"

    def __init__(self, space=None, bohb_config=None, metric=None, mode=None,
                 points_to_evaluate=None, seed=None, max_concurrent=0):
        if space is not None:
            unsupported("TuneBOHB(space=<ConfigSpace>)",
                        "write the space as param_space with tune.uniform/...")
        super().__init__(metric, mode, points_to_evaluate, None,
                         max_concurrent=max_concurrent or None)
        self.seed = seed


class ConcurrencyLimiter(Searcher):
    """Ray's ConcurrencyLimiter: the wrapped searcher's `max_concurrent`."""

    def __init__(self, searcher, max_concurrent, batch=False):
        self.searcher, self.max_concurrent = searcher, max_concurrent
        self.metric, self.mode = searcher.metric, searcher.mode
        self.space = searcher.space
        self.seed = getattr(searcher, "seed", None)

    def set_search_properties(self, metric, mode, config, **spec):
        return self.searcher.set_search_properties(metric, mode, config, **spec)

    def tunedeck_search(self):
        search = self.searcher.tunedeck_search()
        search["max_concurrent"] = int(self.max_concurrent)
        return search


class Repeater(Searcher):
    """Ray's Repeater: the wrapped searcher's `repeat`."""

    def __init__(self, searcher, repeat=1, set_index=True):
        self.searcher, self.repeat = searcher, repeat
        self.metric, self.mode = searcher.metric, searcher.mode
        self.space = searcher.space
        self.seed = getattr(searcher, "seed", None)

    def tunedeck_search(self):
        search = self.searcher.tunedeck_search()
        search["repeat"] = int(self.repeat)
        return search


def unsupported_searcher(name):
    class Refused(Searcher):
        def __init__(self, *args, **kwargs):
            unsupported(name, "use OptunaSearch, HyperOptSearch, BayesOptSearch or TuneBOHB, "
                              "which map onto Tunedeck's tpe, bayesopt and bohb")

    Refused.__name__ = name
    return Refused
