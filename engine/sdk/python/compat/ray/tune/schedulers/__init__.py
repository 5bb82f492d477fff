"""Ray Tune's trial schedulers as Tunedeck's (engine/config/SCHEMA.md, "scheduler"): each object
keeps its arguments and says which `scheduler:` mapping it stands for; the engine schedules.

PBT's `hyperparam_mutations` may hold Python callables (`lambda: random.uniform(...)`). The
engine draws mutations itself, so a callable is sampled here, in the driver, when the experiment
is handed over: 200 draws become a range domain when they are all numbers ([min, max]: `randint`
when all are integers, `loguniform` when they are positive and more than three in four lie below
the middle of the range, as a log-uniform function's do, else `uniform`), or a choice of the
distinct values drawn otherwise (README, "Ray Tune scripts").
"""

from ray import unsupported

_CALLABLE_DRAWS = 200


class TrialScheduler:
    CONTINUE, PAUSE, STOP = "CONTINUE", "PAUSE", "STOP"
    kind = None

    def __init__(self, metric=None, mode=None, **options):
        self.metric, self.mode = metric, mode
        self.options = options

    def set_search_properties(self, metric, mode, **spec):
        self.metric = self.metric or metric
        self.mode = self.mode or mode
        return True

    def tunedeck_scheduler(self, param_space):
        if self.kind is None:
            unsupported("a custom TrialScheduler (%s)" % type(self).__name__,
                        "use FIFOScheduler, ASHAScheduler, HyperBandScheduler, "
                        "MedianStoppingRule, PopulationBasedTraining or PB2")
        scheduler = {"type": self.kind}
        if self.metric is not None:
            scheduler["metric"] = self.metric
        if self.mode is not None:
            scheduler["mode"] = self.mode
        scheduler.update({k: v for k, v in self.options.items() if v is not None})
        return scheduler


class FIFOScheduler(TrialScheduler):
    kind = "fifo"

    def __init__(self):
        super().__init__()

    def tunedeck_scheduler(self, param_space):
        return {"type": "fifo"}


class AsyncHyperBandScheduler(TrialScheduler):
    kind = "asha"

    def __init__(self, time_attr="training_iteration", metric=None, mode=None, max_t=100,
                 grace_period=1, reduction_factor=4, brackets=1, stop_last_trials=True):
        super().__init__(metric, mode, time_attr=time_attr, max_t=max_t,
                         grace_period=grace_period, reduction_factor=reduction_factor,
                         brackets=brackets, stop_last_trials=stop_last_trials)


ASHAScheduler = AsyncHyperBandScheduler


class HyperBandScheduler(TrialScheduler):
    kind = "hyperband"

    def __init__(self, time_attr="training_iteration", metric=None, mode=None, max_t=81,
                 reduction_factor=3, stop_last_trials=True):
        super().__init__(metric, mode, time_attr=time_attr, max_t=max_t,
                         reduction_factor=reduction_factor, stop_last_trials=stop_last_trials)


class HyperBandForBOHB(HyperBandScheduler):
    """BOHB's HyperBand: the engine's hyperband, with TuneBOHB's `bohb` searcher."""


class MedianStoppingRule(TrialScheduler):
    kind = "median"

    def __init__(self, time_attr="time_total_s", metric=None, mode=None, grace_period=60.0,
                 min_samples_required=3, min_time_slice=0, hard_stop=True):
        super().__init__(metric, mode, time_attr=time_attr, grace_period=grace_period,
                         min_samples_required=min_samples_required,
                         min_time_slice=min_time_slice, hard_stop=hard_stop)


def _sampled_domain(draw, name):
    values = [draw() for _ in range(_CALLABLE_DRAWS)]
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    if numbers:
        low, high = min(values), max(values)
        if all(isinstance(v, int) for v in values):
            return {"randint": [low, high + 1]}
        # A log-uniform function puts most draws below the middle of its range (nine in ten
        # over two decades), a uniform one half.
        below_middle = sum(1 for v in values if v < (low + high) / 2) / len(values)
        if low > 0 and below_middle > 0.75:
            return {"loguniform": [float(low), float(high)]}
        return {"uniform": [float(low), float(high)]}
    distinct = []
    for v in values:
        if v not in distinct:
            distinct.append(v)
    try:
        distinct.sort()
    except TypeError:
        pass
    return {"choice": distinct}


def _within(sampled, searched):
    """A sampled range kept inside the parameter's own range (the engine's rule for mutations):
    draws of a function may stray outside what param_space allows."""
    from ray.tune.search.sample import Domain

    if not isinstance(searched, Domain) or not hasattr(searched, "lower"):
        return sampled
    kind = next(iter(sampled))
    if kind not in ("uniform", "loguniform", "randint"):
        return sampled
    low, high = sampled[kind]
    upper = searched.upper - 1 if searched.kind in ("randint", "lograndint") else searched.upper
    if kind == "randint":
        high -= 1
    low, high = max(low, searched.lower), min(high, upper)
    if low > high:
        return searched.spec()
    return {kind: [low, high + 1 if kind == "randint" else high]}


def _mutations(mutations, space, path=""):
    from ray.tune.search.sample import Domain

    space = space if isinstance(space, dict) else {}
    spec = {}
    for name, value in mutations.items():
        where = path + name
        if isinstance(value, Domain):
            domain = value.spec()
            if domain is None:
                spec[name] = _within(_sampled_domain(lambda: value.sample(), where),
                                     space.get(name))
            else:
                spec[name] = domain
        elif isinstance(value, dict):
            spec[name] = _mutations(value, space.get(name), where + ".")
        elif isinstance(value, (list, tuple)):
            spec[name] = {"choice": list(value)}
        elif callable(value):
            spec[name] = _within(_sampled_domain(value, where), space.get(name))
        else:
            raise TypeError("hyperparam_mutations[%r]: expected a domain, a list or a function, "
                            "not %s" % (where, type(value).__name__))
    return spec


class PopulationBasedTraining(TrialScheduler):
    kind = "pbt"

    def __init__(self, time_attr="time_total_s", metric=None, mode=None,
                 perturbation_interval=60.0, burn_in_period=0.0, hyperparam_mutations=None,
                 quantile_fraction=0.25, resample_probability=0.25,
                 perturbation_factors=(1.2, 0.8), custom_explore_fn=None, log_config=True,
                 require_attrs=True, synch=False):
        if not hyperparam_mutations and custom_explore_fn is None:
            raise ValueError("You must specify at least one of `hyperparam_mutations` or "
                             "`custom_explore_fn` to use PBT.")
        if custom_explore_fn is not None and not callable(custom_explore_fn):
            raise TypeError("custom_explore_fn must be a function of the config, not %s"
                            % type(custom_explore_fn).__name__)
        # Called at each exploit, after the engine's perturbation, by the engine's
        # explore_command (ray.tune._explore), as Ray calls it after its own.
        self.custom_explore_fn = custom_explore_fn
        super().__init__(metric, mode, time_attr=time_attr,
                         perturbation_interval=perturbation_interval,
                         burn_in_period=burn_in_period, quantile_fraction=quantile_fraction,
                         resample_probability=resample_probability,
                         perturbation_factors=list(perturbation_factors),
                         require_attrs=require_attrs, synch=synch, log_config=bool(log_config))
        self.hyperparam_mutations = hyperparam_mutations or {}

    def tunedeck_scheduler(self, param_space):
        scheduler = super().tunedeck_scheduler(param_space)
        scheduler["hyperparam_mutations"] = _mutations(self.hyperparam_mutations, param_space)
        return scheduler


class PB2(TrialScheduler):
    kind = "pb2"

    def __init__(self, time_attr="time_total_s", metric=None, mode=None,
                 perturbation_interval=60.0, hyperparam_bounds=None, quantile_fraction=0.25,
                 log_config=True, require_attrs=True, synch=False):
        super().__init__(metric, mode, time_attr=time_attr,
                         perturbation_interval=perturbation_interval,
                         quantile_fraction=quantile_fraction, require_attrs=require_attrs,
                         synch=synch, log_config=bool(log_config),
                         hyperparam_bounds={k: list(v) for k, v in
                                            (hyperparam_bounds or {}).items()})


class ResourceChangingScheduler(TrialScheduler):
    kind = "resource_changing"

    def __init__(self, base_scheduler=None, resources_allocation_function=None):
        super().__init__()
        self.base = base_scheduler or FIFOScheduler()
        if resources_allocation_function is not None and \
                type(resources_allocation_function).__name__ not in (
                    "DistributeResources", "DistributeResourcesToTopJob"):
            unsupported("ResourceChangingScheduler(resources_allocation_function=<function>)",
                        "use DistributeResources or DistributeResourcesToTopJob")
        self.policy = "top" if type(resources_allocation_function).__name__ == \
            "DistributeResourcesToTopJob" else "distribute"

    def set_search_properties(self, metric, mode, **spec):
        return self.base.set_search_properties(metric, mode, **spec)

    def tunedeck_scheduler(self, param_space):
        scheduler = self.base.tunedeck_scheduler(param_space)
        scheduler["base"] = scheduler.pop("type")
        scheduler.update({"type": "resource_changing", "policy": self.policy})
        return scheduler


class DistributeResources:
    def __init__(self, *args, **kwargs):
        pass


class DistributeResourcesToTopJob(DistributeResources):
    pass
