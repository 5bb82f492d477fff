"""The driver side of an Optuna script: study.optimize(objective, n_trials, timeout, n_jobs) builds
a Tunedeck experiment from the study (its directions, sampler and pruner), hands it to
tunedeck-engine (tunedeck.run's launcher: validate, run, show progress) and waits for it; then
the study holds the trials the engine ran (study.add_trial), so best_params, best_value,
best_trial, trials and trials_dataframe() read as after Optuna's own optimize.

The objective travels to the trials pickled with cloudpickle (Debian: python3-cloudpickle); the
trials start it with ``python3 -m tunedeck_optuna._trial PAYLOAD``. Outside
`tunedeck-engine run` (no TUNEDECK_ENGINE), and inside a trial, Optuna's own optimize runs.
One driver thread."""

import datetime
import json
import math
import os
import re
import sys

from tunedeck_payload import trial_trainable, write_payload

_OBJECTIVE = "value"  # the experiment's metric: the objective's return value
_INTERMEDIATE = "intermediate_value"  # what trial.report() sends; the pruner's metric
RECORD_FILE = "optuna_trial.json"  # written by the trial into its folder (_trial.py)



class OptunaUnsupported(NotImplementedError):
    """A part of Optuna's API that Tunedeck cannot honour; the message says what to do instead."""


def unsupported(what, instead):
    raise OptunaUnsupported("%s is not supported when `tunedeck-engine run` runs an Optuna "
                            "script: %s" % (what, instead))


def install(optuna):
    """Puts the engine behind optuna.study.Study.optimize (once)."""
    study_class = optuna.study.Study
    if getattr(study_class.optimize, "_tunedeck", False):
        return
    real_optimize = study_class.optimize

    def optimize(self, func, n_trials=None, timeout=None, n_jobs=1, catch=(), callbacks=None,
                 gc_after_trial=False, show_progress_bar=False):
        if not os.environ.get("TUNEDECK_ENGINE") or os.environ.get("TUNEDECK_TRIAL_ID"):
            return real_optimize(self, func, n_trials=n_trials, timeout=timeout, n_jobs=n_jobs,
                                 catch=catch, callbacks=callbacks, gc_after_trial=gc_after_trial,
                                 show_progress_bar=show_progress_bar)
        return run_study(optuna, self, func, n_trials, timeout, n_jobs, catch, callbacks)

    optimize.__doc__ = real_optimize.__doc__
    optimize._tunedeck = True
    study_class.optimize = optimize


# ---- the study as an experiment ------------------------------------------------------------

def _search(optuna, study):
    sampler = study.sampler
    samplers = optuna.samplers
    name = type(sampler).__name__
    if isinstance(sampler, samplers.TPESampler):
        search = {"algorithm": "tpe"}
        for option, attribute in (("n_startup_trials", "_n_startup_trials"),
                                  ("n_ei_candidates", "_n_ei_candidates")):
            value = getattr(sampler, attribute, None)
            if isinstance(value, int):
                search[option] = value
        if getattr(sampler, "_multivariate", False):
            print("Tunedeck: TPESampler(multivariate=True) samples each parameter on its own "
                  "here (define-by-run)", file=sys.stderr)
        return search
    if isinstance(sampler, samplers.RandomSampler):
        return {"algorithm": "random"}
    if name == "NSGAIISampler" and len(study.directions) > 1:
        print("Tunedeck: the study's NSGAIISampler is replaced by Tunedeck's multi-objective TPE "
              "(Optuna's MOTPE)", file=sys.stderr)
        return {"algorithm": "tpe"}
    if isinstance(sampler, samplers.CmaEsSampler):
        return _cmaes(optuna, sampler)
    unsupported("the sampler %s" % name, "use TPESampler (the default) or RandomSampler")


def _cmaes(optuna, sampler):
    """CmaEsSampler as the engine's cmaes searcher: on the numeric parameters every finished
    trial asked for, as Optuna's; the rest drawn at random."""
    search = {"algorithm": "cmaes"}
    for option in ("n_startup_trials", "popsize", "inc_popsize", "restart_strategy"):
        value = getattr(sampler, "_" + option, None)
        if value is not None:
            search[option] = value
    if search.get("restart_strategy") is None:
        search.pop("restart_strategy", None)
    if getattr(sampler, "_x0", None):
        search["x0"] = dict(sampler._x0)
    for option, instead in (
            ("sigma0", "Tunedeck's cmaes starts with each parameter's range / 6, as Optuna does "
                       "by default, and takes sigma0 as a fraction of each range: leave it out"),
            ("use_separable_cma", "leave it out (full CMA-ES runs)"),
            ("with_margin", "leave it out"),
            ("source_trials", "leave it out (warm starting from other trials is not offered)")):
        if getattr(sampler, "_" + option, None):
            unsupported("CmaEsSampler(%s=...)" % option, instead)
    independent = getattr(sampler, "_independent_sampler", None)
    if independent is not None and not isinstance(independent, optuna.samplers.RandomSampler):
        unsupported("CmaEsSampler(independent_sampler=%s)" % type(independent).__name__,
                    "leave it out: the parameters CMA-ES does not search are drawn at random")
    return search


def _warm_start(optuna, study, search, n_trials):
    """What the study holds before this optimize(), as Optuna's sampler reads it: its finished
    trials (an earlier optimize() of this script, a study loaded from storage) are points with
    their values (search.evaluated_rewards), which the model learns from and does not run again;
    its enqueued trials (study.enqueue_trial, WAITING) are points whose reward is null, run first
    in the order enqueued (as many as n_trials allows), their params answering the objective's
    suggest_* calls. Random search learns nothing from finished trials. Returns the enqueued
    trials that run."""
    waiting = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.WAITING,))
    waiting = waiting[:n_trials] if n_trials is not None else waiting
    finished = [] if search["algorithm"] == "random" else [
        t for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
        if t.values and all(math.isfinite(v) for v in t.values)]
    points = [dict(t.params) for t in finished] + \
        [dict(t.system_attrs.get("fixed_params") or {}) for t in waiting]
    if points:
        search["points_to_evaluate"] = points
    if finished:
        search["evaluated_rewards"] = [t.values[0] if len(t.values) == 1 else list(t.values)
                                       for t in finished] + [None] * len(waiting)
    return waiting


def _sampler_seed(sampler):
    """The seed the sampler was made with: numpy's RandomState(seed) keeps it as the first word of
    its Mersenne Twister key until it draws (a sampler made without one gives a random word)."""
    rng = getattr(sampler, "_rng", None) or getattr(sampler, "_cma_rng", None)
    try:
        return int(rng.get_state()[1][0])
    except (AttributeError, IndexError, TypeError, ValueError):
        return None


def _int_or(value, default):
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _scheduler(optuna, study):
    """The experiment's scheduler for the study's pruner (None: fifo)."""
    pruner = study.pruner
    pruners = optuna.pruners
    name = type(pruner).__name__
    mode = "max" if study.directions[0] == optuna.study.StudyDirection.MAXIMIZE else "min"
    judged = {"metric": _INTERMEDIATE, "mode": mode, "time_attr": "training_iteration"}
    if isinstance(pruner, pruners.NopPruner):
        return None
    if len(study.directions) > 1:
        return None  # Optuna prunes no multi-objective trial (trial.report raises)
    if isinstance(pruner, pruners.MedianPruner) or (
            isinstance(pruner, pruners.PercentilePruner) and
            float(getattr(pruner, "_percentile", 50.0)) == 50.0):
        startup = _int_or(getattr(pruner, "_n_startup_trials", 5), 5)
        warmup = _int_or(getattr(pruner, "_n_warmup_steps", 0), 0)
        least = _int_or(getattr(pruner, "_n_min_trials", 1), 1)
        if _int_or(getattr(pruner, "_interval_steps", 1), 1) != 1:
            print("Tunedeck: MedianPruner(interval_steps=...) judges every step here",
                  file=sys.stderr)
        # Step s is training_iteration s + 1: judged from step n_warmup_steps on.
        return dict(judged, type="median", grace_period=warmup + 1,
                    min_samples_required=max(startup, least))
    if isinstance(pruner, pruners.HyperbandPruner):
        low = _int_or(getattr(pruner, "_min_resource", 1), 1)
        high = getattr(pruner, "_max_resource", "auto")
        factor = _int_or(getattr(pruner, "_reduction_factor", 3), 3)
        scheduler = dict(judged, type="asha", grace_period=low, reduction_factor=factor)
        if isinstance(high, int) and high >= low:
            brackets = int(math.floor(math.log(high / low, factor) + 1e-9)) + 1
            scheduler.update(max_t=high, brackets=max(1, brackets))
        else:  # 'auto': Optuna learns it from the first trial; here the rungs go on to 100
            scheduler.update(max_t=max(100, low), stop_last_trials=False)
        return scheduler
    if isinstance(pruner, pruners.SuccessiveHalvingPruner):
        low = _int_or(getattr(pruner, "_min_resource", "auto"), 1)
        factor = _int_or(getattr(pruner, "_reduction_factor", 4), 4)
        rate = _int_or(getattr(pruner, "_min_early_stopping_rate", 0), 0)
        return dict(judged, type="asha", grace_period=low * factor ** rate,
                    reduction_factor=factor, max_t=max(1000000, low * factor ** rate),
                    stop_last_trials=False)
    unsupported("the pruner %s" % name, "use MedianPruner, SuccessiveHalvingPruner, "
                "HyperbandPruner or NopPruner")


def _results_root():
    return os.path.abspath(os.path.expanduser(
        os.environ.get("TUNEDECK_RESULTS") or "~/tunedeck-results"))


def _name(study):
    name = study.study_name or ""
    if not name or name.startswith("no-name-"):
        script = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
        name = os.path.splitext(script)[0] or "optuna"
    # A name already taken in the results root gets -2, -3, ... (the engine's rule).
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".-") or "optuna"


def _payload(root, name, objective, directions, numbers):
    return write_payload(root, ".optuna-driver", name,
                         dict(numbers, objective=objective, directions=directions),
                         "Optuna scripts", "objective")


def _numbers(study, waiting):
    """The trial numbers the objective sees (trial.number), as the study gives them: the engine's
    first trials are the enqueued ones, keeping theirs; the rest follow the study's last."""
    return {"enqueued_numbers": [t.number for t in waiting],
            "next_number": len(study.get_trials(deepcopy=False))}


def experiment(optuna, study, objective, n_trials, timeout, n_jobs):
    """(the experiment as a dict, its results root, the enqueued trials it runs first)."""
    if not callable(objective):
        raise TypeError("study.optimize() takes a function (the objective), not %s"
                        % type(objective).__name__)
    if n_trials is None and timeout is None:
        unsupported("study.optimize() without n_trials and timeout (until Ctrl-C)",
                    "give n_trials=N or timeout=SECONDS")
    directions = ["max" if d == optuna.study.StudyDirection.MAXIMIZE else "min"
                  for d in study.directions]
    name = _name(study)
    root = _results_root()
    spec = {"name": name}
    search = _search(optuna, study)
    waiting = _warm_start(optuna, study, search, n_trials)
    payload = _payload(root, name, objective, directions, _numbers(study, waiting))
    compat = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec["trainable"] = trial_trainable("tunedeck_optuna._trial", payload, compat)
    spec["search_space"] = {}
    if len(directions) == 1:
        spec["metric"], spec["mode"] = _OBJECTIVE, directions[0]
    else:
        spec["metric"] = ["values_%d" % i for i in range(len(directions))]
        spec["mode"] = directions
    spec["num_samples"] = int(n_trials) if n_trials is not None else -1
    if timeout is not None:
        spec["time_budget_s"] = float(timeout)
    spec["search"] = search
    seed = _sampler_seed(study.sampler)
    if seed is not None:
        spec["seed"] = seed
    scheduler = _scheduler(optuna, study)
    if scheduler:
        spec["scheduler"] = scheduler
    if isinstance(n_jobs, int) and n_jobs > 1:
        spec["max_concurrent_trials"] = n_jobs
    return spec, root, waiting


# ---- the engine's trials back into the study ------------------------------------------------

def _distribution(optuna, recorded):
    d = optuna.distributions
    if recorded["type"] == "categorical":
        return d.CategoricalDistribution(recorded["choices"])
    if recorded["type"] == "int":
        return d.IntDistribution(int(recorded["low"]), int(recorded["high"]),
                                 log=bool(recorded.get("log")),
                                 step=int(recorded.get("step") or 1))
    return d.FloatDistribution(recorded["low"], recorded["high"], log=bool(recorded.get("log")),
                               step=recorded.get("step"))


def _record(trial):
    folder = trial.get("logdir")
    if not folder:
        return None
    try:
        with open(os.path.join(folder, RECORD_FILE), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _when(seconds):
    return datetime.datetime.fromtimestamp(seconds) if seconds else None


def _frozen_trial(optuna, trial, record, directions):
    """The Optuna trial of an engine trial: its trial process's record, else its history."""
    state_of = optuna.trial.TrialState
    record = record or {}
    result = trial.get("last_result") or {}
    state = record.get("state")
    if trial["status"] == "ERROR":
        state = "FAIL"
    if state is None:
        state = "COMPLETE" if trial["status"] == "TERMINATED" else "FAIL"
    values = record.get("values")
    if values is None and state == "COMPLETE":
        keys = [_OBJECTIVE] if len(directions) == 1 else \
            ["values_%d" % i for i in range(len(directions))]
        values = [result.get(k) for k in keys]
        if any(not isinstance(v, (int, float)) for v in values):
            state, values = "FAIL", None
    intermediate = {int(k): v for k, v in (record.get("intermediate_values") or {}).items()}
    if state == "PRUNED":
        last = max(intermediate) if intermediate else None
        values = [intermediate[last]] if last is not None else None
    if state not in ("COMPLETE", "PRUNED"):
        values = None
    distributions = {k: _distribution(optuna, v)
                     for k, v in (record.get("distributions") or {}).items()}
    params = {k: v for k, v in (record.get("params") or trial.get("config") or {}).items()
              if k in distributions}
    frozen = optuna.trial.create_trial(
        state=getattr(state_of, state), values=values, params=params,
        distributions=distributions, user_attrs=record.get("user_attrs") or {},
        system_attrs=dict(record.get("system_attrs") or {}, tunedeck_trial_id=trial["trial_id"]),
        intermediate_values=intermediate)
    start, end = _when(record.get("started_at")), _when(record.get("finished_at"))
    if start:
        frozen.datetime_start = start
        frozen.datetime_complete = end or frozen.datetime_complete
    return frozen


def _cut_by_timeout(trial, record):
    """A trial the engine stopped before its objective returned (the timeout, time_budget_s, was
    spent; or a user's stop order): Optuna would have let it finish, so it is not in the study.
    Every trial that ran its objective to an end wrote its record."""
    return record is None and trial["status"] == "TERMINATED"


def _complete_enqueued(optuna, study, enqueued, frozen):
    """The enqueued (WAITING) trial `enqueued` becomes what the engine's trial `frozen` ran, as
    Optuna's optimize() turns an enqueued trial into a finished one: its number and user
    attributes stay."""
    storage, trial_id = study._storage, enqueued._trial_id
    storage.set_trial_state_values(trial_id, optuna.trial.TrialState.RUNNING)
    for name, value in frozen.params.items():
        distribution = frozen.distributions[name]
        storage.set_trial_param(trial_id, name, distribution.to_internal_repr(value), distribution)
    for step, value in frozen.intermediate_values.items():
        storage.set_trial_intermediate_value(trial_id, step, value)
    for key, value in frozen.user_attrs.items():
        storage.set_trial_user_attr(trial_id, key, value)
    for key, value in frozen.system_attrs.items():
        storage.set_trial_system_attr(trial_id, key, value)
    storage.set_trial_state_values(trial_id, frozen.state, values=frozen.values)
    return study._storage.get_trial(trial_id)


def _fill(optuna, study, analysis, directions, enqueued):
    """Adds the engine's trials to the study, in the order they were created (the first ones
    completing the enqueued trials they ran); returns them and how many were cut by the
    timeout (an enqueued one cut stays WAITING)."""
    added, cut = [], 0
    for index, trial in enumerate(sorted(analysis.trials(), key=lambda t: t["trial_id"])):
        record = _record(trial)
        if _cut_by_timeout(trial, record):
            cut += 1
            continue
        frozen = _frozen_trial(optuna, trial, record, directions)
        if index < len(enqueued):
            frozen = _complete_enqueued(optuna, study, enqueued[index], frozen)
        else:
            study.add_trial(frozen)
        added.append((trial, frozen))
    return added, cut


def run_study(optuna, study, objective, n_trials, timeout, n_jobs, catch, callbacks):
    from tunedeck_analysis import launcher

    if callbacks:
        unsupported("study.optimize(callbacks=...)", "read study.trials after optimize() "
                    "returns (the engine runs the trials; no Python runs between them)")
    spec, root, enqueued = experiment(optuna, study, objective, n_trials, timeout, n_jobs)
    try:
        analysis = launcher.run_experiment(spec, results=root, cwd=os.getcwd())
    except launcher.EngineError as error:
        raise RuntimeError(str(error)) from None
    directions = spec["mode"] if isinstance(spec["mode"], list) else [spec["mode"]]
    added, cut = _fill(optuna, study, analysis, directions, enqueued)
    failed = [t for t, frozen in added if frozen.state == optuna.trial.TrialState.FAIL]
    print("Tunedeck: study '%s' finished: %d trials, %d failed; results in %s"
          % (analysis.name, len(added), len(failed), analysis.folder), flush=True)
    if cut:
        print("Tunedeck: %d trial%s still running when the timeout was spent %s stopped and "
              "%s not in the study" % (cut, "" if cut == 1 else "s",
                                       "was" if cut == 1 else "were",
                                       "is" if cut == 1 else "are"), flush=True)
    if failed and not catch:
        # Optuna re-raises an exception of the objective that `catch` does not name (a value it
        # cannot use, such as None, only fails the trial).
        for trial, _ in added:
            record = _record(trial) or {}
            if record.get("exception"):
                raise RuntimeError("the objective raised in trial %s (number %d): %s"
                                   % (trial["trial_id"], record.get("number", -1),
                                      record["exception"]))
