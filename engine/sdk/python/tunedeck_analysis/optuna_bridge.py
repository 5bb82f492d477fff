"""Tunedeck results to Optuna and back: `to_optuna` hands the finished trials of an experiment
to an Optuna study (so its visualisations, importances and samplers see them), and
`points_to_evaluate` turns a study's trials into configs for an experiment's
`search: points_to_evaluate:`, best first, to warm-start a searcher.

Parameters are flattened as Ray's OptunaSearch does (nested groups as "group/param"); each
parameter's distribution is its domain in the experiment file the history keeps (`uniform` a
FloatDistribution over the whole range, `choice` a CategoricalDistribution of every value, ...),
so a study.optimize() that asks for the same parameters continues the exported study. A domain
Optuna has no distribution for (`normal`, a choice of groups) falls back to the range or the set
of values the trials drew. optuna is imported on call (Debian: python3-optuna).
"""

import json
import os

from . import analysis as _analysis
from . import scores


def _optuna():
    try:
        import optuna
    except ImportError:
        raise ImportError("this needs optuna (Debian: apt install python3-optuna; or pip "
                          "install optuna)") from None
    return optuna


def _flat(config):
    return _analysis._flatten(config, "", {})


def _choice(value):
    # Optuna's categorical values are None, bool, int, float or str.
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return json.dumps(value, sort_keys=True)


def _distributions(optuna, configs):
    values = {}
    for config in configs:
        for name, value in config.items():
            values.setdefault(name, []).append(value)
    distributions = {}
    for name, seen in values.items():
        kinds = {type(v) for v in seen}
        if kinds <= {int} and len(set(seen)) > 1:
            distributions[name] = optuna.distributions.IntDistribution(min(seen), max(seen))
        elif kinds <= {int, float} and float in kinds and len(set(seen)) > 1:
            distributions[name] = optuna.distributions.FloatDistribution(
                float(min(seen)), float(max(seen)))
        else:
            choices = []
            for v in seen:
                if _choice(v) not in choices:
                    choices.append(_choice(v))
            distributions[name] = optuna.distributions.CategoricalDistribution(choices)
    return distributions


_DOMAIN_KEYS = {"uniform", "quniform", "loguniform", "qloguniform", "randint", "qrandint",
                "lograndint", "qlograndint", "normal", "qnormal", "choice", "grid",
                "grid_search", "_type"}


def _domain_distribution(optuna, kind, args):
    """The Optuna distribution of one domain of the experiment file, or None when it has none."""
    D = optuna.distributions
    numbers = isinstance(args, list) and all(
        isinstance(a, (int, float)) and not isinstance(a, bool) for a in args)
    if kind in ("choice", "grid", "grid_search") and isinstance(args, list):
        if any(isinstance(a, dict) for a in args):
            return None  # a choice of groups: its parameters are conditional
        return D.CategoricalDistribution([_choice(a) for a in args])
    if not numbers or len(args) < 2:
        return None
    low, high = args[0], args[1]
    if kind == "uniform":
        return D.FloatDistribution(float(low), float(high))
    if kind == "quniform":
        return D.FloatDistribution(float(low), float(high), step=float(args[2]))
    if kind in ("loguniform", "qloguniform"):
        return D.FloatDistribution(float(low), float(high), log=True)
    if kind == "randint":  # the upper bound is excluded
        return D.IntDistribution(int(low), int(high) - 1)
    if kind == "qrandint":
        return D.IntDistribution(int(low), int(high), step=int(args[2]))
    if kind == "lograndint":
        return D.IntDistribution(int(low), int(high) - 1, log=True)
    if kind == "qlograndint":
        return D.IntDistribution(int(low), int(high), log=True)
    return None  # normal, qnormal: no Optuna distribution


def _spec_distributions(optuna, space, prefix, out):
    """{flat name: distribution} of the search space's domains that Optuna can hold."""
    if not isinstance(space, dict):
        return out
    for name, value in space.items():
        flat = "%s/%s" % (prefix, name) if prefix else str(name)
        if isinstance(value, dict) and "_type" in value:  # NNI's form, inline
            kind = value.get("_type")
            distribution = _domain_distribution(optuna, kind, value.get("_value"))
        elif isinstance(value, dict) and len(set(value) - {"when"}) == 1 and \
                (set(value) - {"when"}) <= _DOMAIN_KEYS:
            kind = next(iter(set(value) - {"when"}))
            distribution = _domain_distribution(optuna, kind, value[kind])
        elif isinstance(value, dict):
            _spec_distributions(optuna, value, flat, out)
            continue
        else:
            continue  # a constant: the values drawn (one) say it
        if distribution is not None:
            out[flat] = distribution
    return out


def _recorded_space(source):
    """The search space of the experiment file the history keeps (an NNI file it names is read
    too); {} when it cannot be read (no PyYAML, a file since moved)."""
    import os

    try:
        import yaml
    except ImportError:
        return {}
    try:
        spec = yaml.safe_load(source.spec_text or "") or {}
    except yaml.YAMLError:
        return {}
    space = spec.get("search_space") if isinstance(spec, dict) else None
    if isinstance(space, str):
        base = os.path.dirname(source._history.spec_file or "")
        try:
            with open(os.path.join(base, space), encoding="utf-8") as f:
                space = json.load(f)
        except (OSError, ValueError):
            return {}
    return space if isinstance(space, dict) else {}


# What an Optuna objective run by `tunedeck-engine run` asked for, kept in each trial's folder
# by compat/tunedeck_optuna/_trial.py (its parameters' distributions are in no experiment file).
_ASKED_RECORD = "optuna_trial.json"


def _asked_distributions(optuna, trials):
    """The distributions define-by-run trials asked for, by parameter name (the last asked)."""
    D = optuna.distributions
    out = {}
    for trial in trials:
        try:
            with open(os.path.join(trial["logdir"] or "", _ASKED_RECORD), encoding="utf-8") as f:
                asked = json.load(f).get("distributions") or {}
        except (OSError, ValueError, TypeError):
            continue
        for name, d in asked.items():
            if d.get("type") == "categorical":
                out[name] = D.CategoricalDistribution(d["choices"])
            elif d.get("type") == "int":
                out[name] = D.IntDistribution(int(d["low"]), int(d["high"]),
                                              log=bool(d.get("log")), step=int(d.get("step") or 1))
            elif d.get("type") == "float":
                out[name] = D.FloatDistribution(d["low"], d["high"], log=bool(d.get("log")),
                                                step=d.get("step"))
    return out


def _param(value, distribution, optuna):
    if isinstance(distribution, optuna.distributions.CategoricalDistribution):
        return _choice(value)
    if isinstance(distribution, optuna.distributions.FloatDistribution):
        return float(value)
    return value


def to_optuna(folder, metric=None, mode=None, scope=scores.DEFAULT_SCOPE, study_name=None,
              storage=None):
    """An optuna.Study holding the experiment's finished trials: TERMINATED ones COMPLETE with
    their score (by `scope`, as `tunedeck-engine best` ranks them) and their curve as
    intermediate values, ERROR ones FAIL. With several objectives, a multi-objective study."""
    optuna = _optuna()
    source = folder if isinstance(folder, _analysis.ExperimentAnalysis) else \
        _analysis.load(folder)
    if metric is None and len(source.objectives) > 1:
        objectives = source.objectives
    else:
        objectives = [source._objective(metric, mode)]
    scored = [dict(source.ranked(m, d, scope)) for m, d in objectives]
    curves = scores.metric_curves(source._history.results, objectives[0][0])
    trials = [t for t in source.trials() if t["status"] in ("TERMINATED", "ERROR")]
    configs = [_flat(t["config"]) for t in trials]
    distributions = _distributions(optuna, configs)
    recorded = _spec_distributions(optuna, _recorded_space(source), "", {})
    distributions.update({k: v for k, v in recorded.items() if k in distributions})
    asked = _asked_distributions(optuna, trials)
    distributions.update({k: v for k, v in asked.items() if k in distributions})
    study = optuna.create_study(
        study_name=study_name or source.name, storage=storage,
        directions=["maximize" if d == "max" else "minimize" for _, d in objectives])
    State = optuna.trial.TrialState
    for trial, config in zip(trials, configs):
        values = [s.get(trial["trial_id"]) for s in scored]
        complete = trial["status"] == "TERMINATED" and None not in values
        study.add_trial(optuna.trial.create_trial(
            state=State.COMPLETE if complete else State.FAIL,
            values=values if complete else None,
            params={k: _param(v, distributions[k], optuna) for k, v in config.items()},
            distributions={k: distributions[k] for k in config},
            intermediate_values=dict(enumerate(curves.get(trial["trial_id"], []), start=1)),
            user_attrs={"trial_id": trial["trial_id"], "logdir": trial["logdir"],
                        "training_iteration": trial["iteration"]}))
    return study


def _nested(params):
    config = {}
    for name, value in params.items():
        parts = name.split("/")
        node = config
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return config


def points_to_evaluate(study, top=None, with_values=False):
    """The configs of a study's completed trials, best first (a multi-objective study: its
    Pareto front), as a list for `search: points_to_evaluate:`; `top` keeps the first N.
    with_values=True returns (points, values), the values being each trial's objective value
    (a list with several objectives), in the same order."""
    optuna = _optuna()
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if len(study.directions) > 1:
        ordered = list(study.best_trials)
    else:
        maximize = study.direction == optuna.study.StudyDirection.MAXIMIZE
        ordered = sorted(complete, key=lambda t: (-t.value if maximize else t.value, t.number))
    if top is not None:
        ordered = ordered[:top]
    points = [_nested(t.params) for t in ordered]
    if not with_values:
        return points
    values = [t.values if len(study.directions) > 1 else t.value for t in ordered]
    return points, values
