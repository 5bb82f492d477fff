"""The trial process of a Ray trainable: ``python3 -m ray.tune._trial PAYLOAD``. It unpickles
what the driver handed over (cloudpickle, as Ray carries trainables), completes the config with
the values the engine cannot hold (sample_from functions, objects that are not JSON), and runs the
function or Trainable class through Tunedeck's trial SDK. As Ray 2 does, the trial runs in its
own folder (the trial's folder); the script's folder stays importable."""

import inspect
import os
import sys

import tunedeck
from ray.tune import _session


def _complete(config, extras):
    """Puts the driver-only values (a nested mapping of path -> value or Function) into config."""
    from ray.tune.search.sample import Function, _Spec

    functions = []

    def walk(target, values, path):
        for name, value in values.items():
            if isinstance(value, dict) and not isinstance(value, Function):
                walk(target.setdefault(name, {}), value, path + [name])
            elif isinstance(value, Function):
                functions.append((target, "/".join(path + [name]), value))
            else:
                target[name] = value

    walk(config, extras, [])
    drawn = {}
    for target, path, function in functions:  # in the order written, as Ray resolves them
        name = path.rsplit("/", 1)[-1]
        target[name] = function.func(_Spec(config))
        drawn[path] = target[name]
    return config, drawn


def _keep_drawn(drawn):
    """Writes the sample_from values into the trial's folder, where the driver's results read
    them (the engine's recorded config cannot hold them)."""
    import json

    if not drawn:
        return
    path = os.path.join(tunedeck.get_trial_dir(), SAMPLED_FILE)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(tunedeck._jsonable(drawn), f)


SAMPLED_FILE = "sample_from.json"


def _ask(define_by_run, config):
    """Ray's OptunaSearch with a define-by-run function: the function asks for the parameters
    through an Optuna trial (the engine's searcher answers, and the trial's config records each),
    and what it returns is constants. As Ray builds the config: the parameters and the constants,
    names holding '/' made nested. Both are also kept with the sample_from values, so the
    driver's results show the config the trainable saw."""
    from tunedeck_optuna._trial import Trial

    trial_id = os.environ.get("TUNEDECK_TRIAL_ID", "")
    number = int(trial_id.lstrip("t") or 0) if trial_id.lstrip("t").isdigit() else 0
    trial = Trial(number, ["min"])
    constants = define_by_run(trial) or {}
    if not isinstance(constants, dict):
        raise TypeError("the define-by-run function of OptunaSearch returns a dict of constants "
                        "or None, not %s" % type(constants).__name__)
    asked = dict(trial._params)
    asked.update(constants)
    flat = dict(config)
    flat.update(asked)
    from ray.tune.search.sample import _set_at_path

    nested = {}
    for name, value in flat.items():
        _set_at_path(nested, name, value)
    return nested, asked


def _run_function(function, config):
    parameters = inspect.signature(getattr(function, "_tunedeck_inner", function)).parameters
    if "checkpoint_dir" in parameters:  # Ray 1.x: def train(config, checkpoint_dir=None)
        restore = tunedeck.get_checkpoint()
        returned = function(config, checkpoint_dir=str(restore) if restore else None)
    else:
        returned = function(config)
    if isinstance(returned, dict):  # a function's return value is its last result (Ray's)
        _session.report(returned)


def _with_stoppers(trainable_class):
    class Stopped(trainable_class):
        def step(self):
            metrics = super().step()
            if isinstance(metrics, dict) and _session._stop_requested(metrics):
                metrics = dict(metrics, done=True)
            return metrics

    Stopped.__name__ = trainable_class.__name__
    Stopped.__qualname__ = trainable_class.__qualname__
    return Stopped


def main(path):
    import cloudpickle  # noqa: F401  (pickle.load needs it for what it pickled)
    import pickle

    with open(path, "rb") as f:
        payload = pickle.load(f)
    _session._stoppers.extend(payload["stoppers"])
    config = dict(tunedeck.get_config())
    asked = {}
    if payload.get("define_by_run") is not None:
        config, asked = _ask(payload["define_by_run"], config)
    config, drawn = _complete(config, payload["extras"])
    _keep_drawn(dict(asked, **drawn))
    trial_dir = tunedeck.get_trial_dir()
    if payload.get("chdir", True) and os.path.isdir(trial_dir):
        os.chdir(trial_dir)
    trainable = payload["trainable"]
    if isinstance(trainable, type):
        if _session._stoppers:
            trainable = _with_stoppers(trainable)
        tunedeck._run_trainable(trainable, config)
    else:
        _run_function(trainable, config)


if __name__ == "__main__":
    main(sys.argv[1])
