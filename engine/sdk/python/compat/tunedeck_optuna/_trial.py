"""The trial process of an Optuna objective: ``python3 -m tunedeck_optuna._trial PAYLOAD``. It
unpickles the objective (cloudpickle) and calls it once with a Trial whose suggest_* ask the
engine (tunedeck.suggest: the engine's searcher answers define-by-run), whose report() is a
Tunedeck report judged by the experiment's scheduler (the study's pruner) and whose
should_prune() says whether the scheduler stopped the trial. How it ended (COMPLETE, PRUNED,
FAIL), its parameters with their distributions, intermediate values and user attributes are
written to optuna_trial.json in the trial's folder, where the driver reads them into the study."""

import datetime
import json
import math
import os
import sys
import time
import traceback
import warnings

import optuna
import tunedeck

from tunedeck_optuna._driver import RECORD_FILE


def _distribution_json(distribution):
    d = optuna.distributions
    if isinstance(distribution, d.CategoricalDistribution):
        return {"type": "categorical", "choices": [tunedeck._jsonable(c)
                                                   for c in distribution.choices]}
    kind = "int" if isinstance(distribution, d.IntDistribution) else "float"
    return {"type": kind, "low": distribution.low, "high": distribution.high,
            "step": distribution.step, "log": bool(distribution.log)}


class Trial:
    """Optuna's Trial as the objective sees it, answered by the engine."""

    def __init__(self, number, directions):
        self._number = number
        self._directions = directions
        self._params = {}
        self._distributions = {}
        self._user_attrs = {}
        self._system_attrs = {}
        self._intermediate = {}
        self._stopped = False  # the engine's scheduler answered `stop` to a report
        self.datetime_start = datetime.datetime.now()

    # ---- parameters ---------------------------------------------------------------------

    def _suggest(self, name, distribution):
        if name in self._distributions:
            # As Optuna: the same name again is the same value (a clash of kinds is an error).
            optuna.distributions.check_distribution_compatibility(self._distributions[name],
                                                                  distribution)
            return self._params[name]
        value = tunedeck.suggest(name, _distribution_json(distribution))
        if isinstance(distribution, optuna.distributions.CategoricalDistribution):
            # The choice itself (a tuple, an object with the same JSON), not its JSON.
            for choice in distribution.choices:
                if tunedeck._jsonable(choice) == value:
                    value = choice
                    break
        elif isinstance(distribution, optuna.distributions.IntDistribution):
            value = int(value)
        else:
            value = float(value)
        self._params[name] = value
        self._distributions[name] = distribution
        return value

    def suggest_float(self, name, low, high, *, step=None, log=False):
        return self._suggest(name, optuna.distributions.FloatDistribution(low, high, log=log,
                                                                          step=step))

    def suggest_uniform(self, name, low, high):
        return self.suggest_float(name, low, high)

    def suggest_loguniform(self, name, low, high):
        return self.suggest_float(name, low, high, log=True)

    def suggest_discrete_uniform(self, name, low, high, q):
        return self.suggest_float(name, low, high, step=q)

    def suggest_int(self, name, low, high, step=1, log=False):
        return self._suggest(name, optuna.distributions.IntDistribution(low, high, log=log,
                                                                        step=step))

    def suggest_categorical(self, name, choices):
        return self._suggest(name, optuna.distributions.CategoricalDistribution(choices))

    # ---- pruning --------------------------------------------------------------------------

    def report(self, value, step):
        if len(self._directions) > 1:
            raise NotImplementedError("Trial.report is not supported for multi-objective "
                                      "optimization.")
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise TypeError("The `value` argument is of type '%s' but supposed to be a float."
                            % type(value).__name__) from None
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise ValueError("The `step` argument is %r but cannot be negative." % (step,))
        if step in self._intermediate:
            warnings.warn("The reported value is ignored because this `step` %d is already "
                          "reported." % step)
            return
        self._intermediate[step] = value
        if self._stopped or not math.isfinite(value):
            return  # the scheduler has decided; a NaN judges nothing
        self._stopped = _report({"value": value, "intermediate_value": value, "step": step,
                                 "training_iteration": step + 1})

    def should_prune(self):
        if len(self._directions) > 1:
            raise NotImplementedError("Trial.should_prune is not supported for multi-objective "
                                      "optimization.")
        return self._stopped

    # ---- attributes -----------------------------------------------------------------------

    def set_user_attr(self, key, value):
        self._user_attrs[key] = value

    def set_system_attr(self, key, value):
        self._system_attrs[key] = value

    @property
    def number(self):
        return self._number

    @property
    def params(self):
        return dict(self._params)

    @property
    def distributions(self):
        return dict(self._distributions)

    @property
    def user_attrs(self):
        return dict(self._user_attrs)

    @property
    def system_attrs(self):
        return dict(self._system_attrs)

    @property
    def relative_params(self):
        return {}

    @property
    def study(self):
        raise AttributeError("trial.study is not available in a trial run by Tunedeck (the study "
                             "lives in the driver script); pass what the objective needs as its "
                             "arguments")


def _report(metrics):
    """Sends one report and reads the engine's answer without leaving: True when it is `stop`."""
    session = tunedeck._get_session()
    if not session.connected:
        print("tunedeck report: " + json.dumps(metrics, sort_keys=True), flush=True)
        return False
    session.send({"type": "report", "metrics": tunedeck._jsonable(metrics)})
    while True:
        answer = session.receive()
        action = answer.get("action")
        if action == "continue":
            return False
        if action == "stop":
            return True
        if action in ("save", "pause"):
            # An objective cannot save itself: the engine is told so, and its next answer says
            # whether the trial goes on (a pause that only gives way to waiting trials is
            # dropped for a trial that cannot keep its progress: core/trial_attempt.h).
            session.send({"type": "checkpoint", "path": None})
            continue
        if action == "refused":
            raise RuntimeError("tunedeck: " + str(answer.get("message")))
        raise RuntimeError("tunedeck: unknown answer from the engine: %r" % answer)


def _values(returned, directions):
    """The objective's value(s) as floats, or (None, the reason Optuna would give)."""
    if len(directions) > 1:
        if not isinstance(returned, (list, tuple)) or len(returned) != len(directions):
            return None, ("The number of the values %s did not match the number of the "
                          "objectives %d." % (returned, len(directions)))
        items = list(returned)
    else:
        items = [returned]
    values = []
    for item in items:
        try:
            value = float(item)
        except (TypeError, ValueError):
            return None, "The value %r could not be cast to float." % (item,)
        if math.isnan(value):
            return None, "The objective function returned %s." % item
        values.append(value)
    return values, None


def _number(payload, index):
    """The study's number of the engine's trial `index` (the driver's _numbers)."""
    enqueued = payload.get("enqueued_numbers") or []
    if index < len(enqueued):
        return enqueued[index]
    return payload.get("next_number", 0) + index - len(enqueued)


def main(path):
    import cloudpickle  # noqa: F401  (pickle.load needs it for what it pickled)
    import pickle

    with open(path, "rb") as f:
        payload = pickle.load(f)
    directions = payload["directions"]
    trial_id = os.environ.get("TUNEDECK_TRIAL_ID", "t0")
    digits = "".join(ch for ch in trial_id.split(".")[0] if ch.isdigit())
    trial = Trial(_number(payload, int(digits or 0)), directions)
    record = {"number": trial.number, "started_at": time.time()}
    code = 0
    try:
        returned = payload["objective"](trial)
        values, problem = _values(returned, directions)
        if values is None:
            record["state"] = "FAIL"
            print("Trial %d failed, because %s" % (trial.number, problem), file=sys.stderr)
            code = 1
        else:
            record["state"], record["values"] = "COMPLETE", values
            if not trial._stopped:  # a stopped trial's reports are no longer taken
                if len(values) == 1:
                    _report({"value": values[0]})
                else:
                    _report({"values_%d" % i: v for i, v in enumerate(values)})
    except optuna.TrialPruned:
        record["state"] = "PRUNED"
    except Exception as error:  # noqa: BLE001 (any exception of the objective fails the trial)
        record["state"] = "FAIL"
        record["exception"] = "%s: %s" % (type(error).__name__, error)
        traceback.print_exc()
        code = 1
    record.update(finished_at=time.time(), params=tunedeck._jsonable(trial._params),
                  distributions={k: _distribution_json(v)
                                 for k, v in trial._distributions.items()},
                  intermediate_values={str(k): v for k, v in trial._intermediate.items()},
                  user_attrs=tunedeck._jsonable(trial._user_attrs),
                  system_attrs=tunedeck._jsonable(trial._system_attrs))
    folder = tunedeck.get_trial_dir()
    if folder and os.path.isdir(folder):
        with open(os.path.join(folder, RECORD_FILE), "w", encoding="utf-8") as f:
            json.dump(record, f)
    if code:
        tunedeck._get_session().failed = True  # no `done`: the exit status says it failed
        sys.exit(code)
    tunedeck.done()


if __name__ == "__main__":
    main(sys.argv[1])
