"""The driver side of a Ray Tune script: Tuner(...).fit() and tune.run(...) build a Tunedeck
experiment from Ray's objects (TuneConfig, RunConfig, param_space, scheduler, search_alg), hand
it to tunedeck-engine (Tunedeck's tunedeck.run: validate, run with events, show progress) and
wait for it, then read the history into Ray's result objects.

The trainable travels to the trials pickled with cloudpickle (Debian: python3-cloudpickle), as
Ray carries it; the trials start it with ``python3 -m ray.tune._trial PAYLOAD``. The payload
also holds what the engine cannot: sample_from functions, non-JSON values of the param_space and
Python stoppers. It is kept beside the results (<results>/.ray-driver/), so `tunedeck-engine
resume` of the experiment finds it. One driver thread."""

import functools
import math
import os
import re
import sys

import ray
from ray import unsupported
from ray.air.config import CheckpointConfig, FailureConfig, RunConfig
from ray.tune import _results, stopper as _stopper
from ray.tune._callbacks import Callback, CallbackRunner
from ray.tune.search.sample import Domain, Function
from tunedeck_payload import trial_trainable, write_payload


class TuneConfig:
    def __init__(self, mode=None, metric=None, search_alg=None, scheduler=None, num_samples=1,
                 max_concurrent_trials=None, time_budget_s=None, reuse_actors=None,
                 trial_name_creator=None, trial_dirname_creator=None, chdir_to_trial_dir=True):
        self.mode, self.metric = mode, metric
        self.search_alg, self.scheduler = search_alg, scheduler
        self.num_samples, self.max_concurrent_trials = num_samples, max_concurrent_trials
        self.time_budget_s = time_budget_s
        self.chdir_to_trial_dir = chdir_to_trial_dir


def with_parameters(trainable, **kwargs):
    """Ray's tune.with_parameters: the trainable gets these objects as keyword arguments (the
    function's, or the Trainable's setup()); they travel pickled with it."""
    if isinstance(trainable, type):
        class WithParameters(trainable):
            def setup(self, config):
                return super().setup(config, **kwargs)

        WithParameters.__name__ = trainable.__name__
        WithParameters.__qualname__ = trainable.__qualname__
        return WithParameters

    @functools.wraps(trainable)
    def with_params(config, **more):
        return trainable(config, **kwargs, **more)

    del with_params.__wrapped__  # the signature is (config), not the wrapped function's
    with_params._tunedeck_inner = trainable  # whose checkpoint_dir argument _trial.py looks for
    return with_params


class PlacementGroupFactory:
    def __init__(self, bundles, strategy="PACK", *args, **kwargs):
        self.bundles, self.strategy = list(bundles), strategy


def with_resources(trainable, resources):
    """Ray's tune.with_resources: the trial's `resources_per_trial`."""
    if callable(resources) and not isinstance(resources, (dict, PlacementGroupFactory)):
        unsupported("tune.with_resources(trainable, <function>)",
                    "give the resources as a dict, e.g. {'cpu': 2, 'gpu': 1}")
    if isinstance(trainable, type):
        wrapped = type(trainable.__name__, (trainable,), {})
        wrapped.__qualname__ = trainable.__qualname__
    else:
        @functools.wraps(trainable)
        def wrapped(*args, **kwargs):
            return trainable(*args, **kwargs)
    wrapped._tunedeck_resources = resources
    return wrapped


def _resources(resources):
    if resources is None:
        return None
    if isinstance(resources, PlacementGroupFactory):
        bundles = resources.bundles
        out = _resources(bundles[0]) or {}
        if len(bundles) > 1:
            out["workers"] = len(bundles)
        return out
    scaling = getattr(resources, "num_workers", None)
    if type(resources).__name__ == "ScalingConfig":
        per = resources.resources_per_worker or {}
        out = {"cpu": per.get("CPU", per.get("cpu", 1)),
               "gpu": per.get("GPU", per.get("gpu", 1 if resources.use_gpu else 0))}
        if scaling:
            out["workers"] = int(scaling)
        return out
    out = {}
    for key, value in dict(resources).items():
        lowered = key.lower()
        if lowered in ("cpu", "gpu"):
            out[lowered] = value
        elif lowered in ("memory", "object_store_memory", "custom_resources") and not value:
            continue
        else:
            unsupported("the resource %r" % key, "Tunedeck places trials by cpu and gpu "
                        "(and resources_per_trial.gpu_memory_mb in an experiment file)")
    return out


_JSON_SCALARS = (type(None), bool, int, str)


def _is_json(value):
    if isinstance(value, _JSON_SCALARS):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_is_json(v) for v in value)
    return False


def _split_space(space):
    """(the engine's search_space, the values only the trial can have): domains and JSON
    values go to the engine; sample_from functions and other Python objects stay in Python."""
    engine, extras = {}, {}
    for name, value in (space or {}).items():
        name = str(name)
        if isinstance(value, Function):
            extras[name] = value
        elif isinstance(value, Domain):
            engine[name] = value.spec()
        elif isinstance(value, dict) and set(value) == {"grid_search"}:
            values = list(value["grid_search"])
            if not all(_is_json(v) for v in values):
                unsupported("grid_search over Python objects (%s)" % name,
                            "grid over names or numbers and build the objects in the trainable")
            engine[name] = {"grid_search": values}
        elif isinstance(value, dict):
            inner, inner_extras = _split_space(value)
            if inner or not inner_extras:
                engine[name] = inner
            if inner_extras:
                extras[name] = inner_extras
        elif _is_json(value):
            engine[name] = list(value) if isinstance(value, tuple) else value
        else:
            extras[name] = value
    return engine, extras


def _name(trainable, given):
    if given:
        return given
    base = getattr(trainable, "__name__", None) or type(trainable).__name__
    return re.sub(r"[^A-Za-z0-9_.-]", "_", base).lstrip(".-") or "experiment"


def _stop(stop, spec, stoppers):
    """Puts `stop` (a dict, a function, a Stopper, a list of them) into the experiment."""
    if stop is None:
        return
    if isinstance(stop, dict):
        rules = dict(stop)
        # A reported `done: True` always ends a trial (the trial SDK's rule, as Ray's), so
        # `stop: {done: True}` needs no rule of its own.
        if rules.pop("done", None) not in (None, True):
            raise ValueError("stop={'done': ...} takes True (a trial reporting done=True ends)")
        if rules:
            spec.setdefault("stop", {}).update(rules)
    elif isinstance(stop, (list, tuple)):
        for one in stop:
            _stop(one, spec, stoppers)
    elif isinstance(stop, _stopper.MaximumIterationStopper):
        spec.setdefault("stop", {})["training_iteration"] = int(stop.max_iter)
    elif isinstance(stop, _stopper.TimeoutStopper):
        spec["time_budget_s"] = stop.timeout
    elif isinstance(stop, _stopper.CombinedStopper):
        _stop(list(stop.stoppers), spec, stoppers)
    elif isinstance(stop, _stopper.Stopper):
        if type(stop).stop_all is not _stopper.Stopper.stop_all:
            unsupported("a Stopper with stop_all() (%s)" % type(stop).__name__,
                        "stop single trials in __call__, or bound the run with time_budget_s")
        stoppers.append(stop)
    elif callable(stop):
        stoppers.append(_stopper.FunctionStopper(stop))
    else:
        raise TypeError("stop= takes a dict, a function or a Stopper, not %s"
                        % type(stop).__name__)


def _checkpoint(config):
    if config is None:
        return None
    out = {}
    if config.checkpoint_frequency:
        out["frequency"] = int(config.checkpoint_frequency)
    if config.checkpoint_at_end:
        out["at_end"] = True
    if config.num_to_keep:
        out["keep"] = int(config.num_to_keep)
    if config.checkpoint_score_attribute:
        out["score"] = config.checkpoint_score_attribute
        out["score_mode"] = config.checkpoint_score_order or "max"
    return out or None


def _failure(config):
    if config is None:
        return None
    out = {"max_failures": int(config.max_failures or 0)}
    if config.fail_fast:
        out["fail_fast"] = "raise" if config.fail_fast == "raise" else True
    return out


def _results_root(run_config):
    given = run_config.storage_path or run_config.local_dir
    if given:
        if "://" in str(given):
            unsupported("storage_path=%r (cloud storage)" % (given,),
                        "give a local folder, or a shared one (NFS) for a cluster")
        return os.path.abspath(os.path.expanduser(str(given)))
    return os.path.abspath(os.path.expanduser(
        os.environ.get("TUNEDECK_RESULTS") or "~/tunedeck-results"))


def _innermost(search_alg):
    """The searcher a ConcurrencyLimiter or Repeater wraps."""
    while getattr(search_alg, "searcher", None) is not None:
        search_alg = search_alg.searcher
    return search_alg


def _payload(root, name, trainable, extras, stoppers, chdir, define_by_run=None,
             explore_fn=None):
    payload = {"trainable": trainable, "extras": extras, "stoppers": stoppers, "chdir": chdir,
               "define_by_run": define_by_run, "explore_fn": explore_fn}
    return write_payload(root, ".ray-driver", name, payload, "Ray Tune scripts", "trainable")


def _experiment(trainable, param_space, tune_config, run_config, resources=None):
    """(the experiment as a dict, its results root, metric, mode, the driver-only values)."""
    if isinstance(trainable, str):
        unsupported("a trainable named by a string (%r, RLlib's registry)" % trainable,
                    "pass the function or Trainable class itself")
    if not callable(trainable):
        raise TypeError("the trainable must be a function or a Trainable class, not %s"
                        % type(trainable).__name__)
    for callback in run_config.callbacks or []:
        if not isinstance(callback, Callback):
            unsupported("the callback %r (not a tune.Callback)" % (callback,),
                        "subclass ray.tune.Callback and override its on_* hooks")
    search_alg, scheduler = tune_config.search_alg, tune_config.scheduler
    metric = tune_config.metric or getattr(search_alg, "metric", None) or \
        getattr(scheduler, "metric", None)
    mode = tune_config.mode or getattr(search_alg, "mode", None) or \
        getattr(scheduler, "mode", None)
    if (metric is None) != (mode is None):
        raise ValueError("give both metric and mode (TuneConfig(metric=..., mode=...)), or "
                         "neither")
    space = dict(param_space or {})
    if search_alg is not None and getattr(search_alg, "space", None):
        space.update(search_alg.space)
    define_by_run = getattr(_innermost(search_alg), "define_by_run", None)
    if define_by_run is not None and space:
        raise ValueError("OptunaSearch was given a define-by-run function, so param_space must "
                         "be empty (the function asks for every parameter); got %s"
                         % ", ".join(sorted(space)))
    engine_space, extras = _split_space(space)
    stoppers = []
    name = _name(trainable, run_config.name)
    root = _results_root(run_config)
    spec = {"name": name}
    _stop(run_config.stop, spec, stoppers)
    explore_fn = getattr(getattr(scheduler, "base", scheduler), "custom_explore_fn", None)
    payload = _payload(root, name, trainable, extras, stoppers,
                       tune_config.chdir_to_trial_dir, define_by_run, explore_fn)
    compat = os.path.dirname(os.path.dirname(os.path.abspath(ray.__file__)))
    spec["trainable"] = trial_trainable("ray.tune._trial", payload, compat)
    resources = _resources(getattr(trainable, "_tunedeck_resources", None) or resources)
    if resources:
        spec["resources_per_trial"] = resources
    spec["search_space"] = engine_space
    spec["num_samples"] = int(tune_config.num_samples)
    if metric is not None:
        spec["metric"], spec["mode"] = metric, mode
    if search_alg is not None:
        search_alg.set_search_properties(metric, mode, space)
        spec["search"] = search_alg.tunedeck_search()
        seed = getattr(search_alg, "seed", None)
        if isinstance(seed, int):
            spec["seed"] = seed
    if scheduler is not None:
        scheduler.set_search_properties(metric, mode)
        spec["scheduler"] = scheduler.tunedeck_scheduler(space)
        for key in ("metric", "mode"):
            if spec["scheduler"].get(key) == spec.get(key):
                spec["scheduler"].pop(key, None)
        if explore_fn is not None:
            # Run by the engine at each exploit, as the trials run: same python, same path.
            spec["scheduler"]["explore_command"] = \
                spec["trainable"]["command"][:2] + ["ray.tune._explore", payload]
    checkpoint = _checkpoint(run_config.checkpoint_config)
    if checkpoint:
        spec["checkpoint"] = checkpoint
    failure = _failure(run_config.failure_config)
    if failure:
        spec["failure"] = failure
    if tune_config.max_concurrent_trials:
        spec["max_concurrent_trials"] = int(tune_config.max_concurrent_trials)
    if tune_config.time_budget_s:
        seconds = getattr(tune_config.time_budget_s, "total_seconds", None)
        spec["time_budget_s"] = float(seconds() if seconds else tune_config.time_budget_s)
    return spec, root, metric, mode, extras


def _launch(spec, root, verbose, callbacks=None):
    from tunedeck_analysis import launcher

    ray.init()
    on_event = None
    if callbacks:
        on_event = CallbackRunner(callbacks, spec.get("stop"), spec.get("num_samples"))
    try:
        analysis = launcher.run_experiment(spec, results=root, cwd=os.getcwd(),
                                           progress=verbose != 0, on_event=on_event)
    except launcher.EngineError as error:
        raise _results.TuneError(str(error)) from None
    trials = analysis.trials()
    errored = sum(1 for t in trials if t["status"] == "ERROR")
    print("Tunedeck: experiment '%s' finished: %d trial%s, %d errored; results in %s"
          % (analysis.name, len(trials), "" if len(trials) == 1 else "s", errored,
             analysis.folder), flush=True)
    return analysis


def _recorded_extras(analysis):
    """The driver-only values of a recorded experiment, from the payload its trials start with;
    {} when it cannot be read."""
    import json
    import pickle

    try:
        command = json.loads(analysis.spec_text)["trainable"]["command"]
        with open(command[-1], "rb") as f:
            import cloudpickle  # noqa: F401  (what the payload was pickled with)

            return pickle.load(f).get("extras", {})
    except Exception:  # an experiment not started by a Ray script, or a moved payload
        return {}


class Tuner:
    """Ray's Tuner: fit() runs the experiment through tunedeck-engine and returns a ResultGrid."""

    def __init__(self, trainable=None, *, param_space=None, tune_config=None, run_config=None,
                 _tuner_kwargs=None, **kwargs):
        if kwargs:
            raise TypeError("Tuner() got unexpected arguments: %s" % ", ".join(sorted(kwargs)))
        self.trainable = trainable
        self.param_space = param_space
        self.tune_config = tune_config or TuneConfig()
        self.run_config = run_config or RunConfig()
        self._results = None

    @classmethod
    def restore(cls, path, trainable=None, resume_unfinished=True, resume_errored=False,
                restart_errored=False, param_space=None, **kwargs):
        """Ray's Tuner.restore: fit() continues the experiment in `path` (`tunedeck-engine
        resume`), its unfinished trials from their latest checkpoints, with the trainable it
        was started with (kept pickled beside the results; a `trainable` given here is not
        used)."""
        if not cls.can_restore(path):
            raise ValueError("%s is not an experiment folder to restore (no experiment.sqlite)"
                             % path)
        if resume_errored or restart_errored or not resume_unfinished:
            print("Tunedeck: Tuner.restore() continues the unfinished trials as `tunedeck-engine "
                  "resume` does; resume_errored, restart_errored and resume_unfinished have no "
                  "effect", file=sys.stderr)
        tuner = cls(trainable)
        tuner._restore_path = os.path.abspath(os.path.expanduser(str(path)))
        return tuner

    @classmethod
    def can_restore(cls, path):
        return os.path.isfile(os.path.join(os.path.expanduser(str(path)), "experiment.sqlite"))

    def _resume(self):
        from tunedeck_analysis import launcher

        ray.init()
        try:
            analysis = launcher.resume_experiment(self._restore_path)
        except launcher.EngineError as error:
            raise _results.TuneError(str(error)) from None
        self._results = _results.ResultGrid(analysis, analysis.metric, analysis.mode,
                                            _recorded_extras(analysis))
        return self._results

    def fit(self):
        if getattr(self, "_restore_path", None):
            return self._resume()
        spec, root, metric, mode, extras = _experiment(self.trainable, self.param_space,
                                                       self.tune_config, self.run_config)
        verbose = self.run_config.verbose
        analysis = _launch(spec, root, 1 if verbose is None else verbose,
                           self.run_config.callbacks)
        self._results = _results.ResultGrid(analysis, metric, mode, extras)
        return self._results

    def get_results(self):
        if self._results is None:
            raise RuntimeError("get_results() is called before fit()")
        return self._results


_RUN_IGNORED = {"progress_reporter", "log_to_file", "trial_name_creator",
                "trial_dirname_creator", "reuse_actors", "sync_config", "export_formats",
                "max_concurrent_trials_per_node", "loggers", "checkpoint_keep_all_ranks",
                "checkpoint_upload_from_workers", "keep_checkpoints_order", "_remote",
                "server_port", "search_space"}


def run(run_or_experiment, name=None, metric=None, mode=None, stop=None, time_budget_s=None,
        config=None, resources_per_trial=None, num_samples=1, local_dir=None,
        storage_path=None, search_alg=None, scheduler=None, keep_checkpoints_num=None,
        checkpoint_score_attr=None, checkpoint_freq=0, checkpoint_at_end=False, verbose=3,
        max_failures=0, fail_fast=False, restore=None, resume=None,
        raise_on_failed_trial=True, callbacks=None, max_concurrent_trials=None,
        checkpoint_config=None, chdir_to_trial_dir=True, **kwargs):
    """Ray's tune.run: the same experiment as a Tuner, returning an ExperimentAnalysis."""
    unknown = set(kwargs) - _RUN_IGNORED
    if unknown:
        raise TypeError("tune.run() got unexpected arguments: %s" % ", ".join(sorted(unknown)))
    for key in sorted(set(kwargs) & _RUN_IGNORED):
        print("Tunedeck: tune.run(%s=...) has no effect here (the engine's own)" % key,
              file=sys.stderr)
    if restore or resume not in (None, False):
        unsupported("tune.run(restore=/resume=)", "continue an experiment with "
                    "`tunedeck-engine resume EXPERIMENT_DIR`")
    score_order = "max"
    if isinstance(checkpoint_score_attr, str) and checkpoint_score_attr.startswith("min-"):
        checkpoint_score_attr, score_order = checkpoint_score_attr[4:], "min"
    checkpoints = checkpoint_config or CheckpointConfig(
        num_to_keep=keep_checkpoints_num, checkpoint_score_attribute=checkpoint_score_attr,
        checkpoint_score_order=score_order, checkpoint_frequency=checkpoint_freq,
        checkpoint_at_end=checkpoint_at_end)
    run_config = RunConfig(name=name, stop=stop, storage_path=storage_path or local_dir,
                           checkpoint_config=checkpoints, callbacks=callbacks, verbose=verbose,
                           failure_config=FailureConfig(max_failures=max_failures,
                                                        fail_fast=fail_fast))
    tune_config = TuneConfig(metric=metric, mode=mode, search_alg=search_alg,
                             scheduler=scheduler, num_samples=num_samples,
                             max_concurrent_trials=max_concurrent_trials,
                             time_budget_s=time_budget_s,
                             chdir_to_trial_dir=chdir_to_trial_dir)
    spec, root, metric, mode, extras = _experiment(run_or_experiment, config, tune_config,
                                                   run_config, resources_per_trial)
    analysis = _launch(spec, root, verbose, callbacks)
    result = _results.ExperimentAnalysis(analysis, metric, mode, extras)
    failed = [t for t in result.trials if t.status == "ERROR"]
    if failed and raise_on_failed_trial:
        raise _results.TuneError("Trials did not complete: %s" % ", ".join(map(str, failed)))
    return result
