"""Tunedeck's stand-in for NNI's trial API, so NNI trial code runs unchanged in a Tunedeck trial
(`tunedeck-engine run config.yml`, README "NNI experiments"). Each call is Tunedeck's trial SDK
(tunedeck.py) under NNI's name. A metric is a number or a dict holding "default" (NNI's); it is
reported under the key "default", the experiment's metric, with the dict's other keys beside it.
The final result is one more report after the intermediate ones, so the trial's last result (what
Tunedeck's searchers learn from and `best` ranks by, scope "last") is NNI's final result. One
thread."""

import os

import tunedeck

__version__ = "2.10+tunedeck"

_state = {"final": False}


def get_next_parameter():
    """The trial's hyperparameters (NNI gives each trial one set)."""
    return dict(tunedeck.get_config())


def get_current_parameter(tag=None):
    config = tunedeck.get_config()
    return config if tag is None else config.get(tag)


def _metrics(metric):
    if isinstance(metric, dict):
        if "default" not in metric:
            raise ValueError("nni: a metric dict must hold a 'default' value (NNI's rule), "
                             "got keys %s" % sorted(metric))
        return dict(metric)
    return {"default": metric}


def report_intermediate_result(metric):
    tunedeck.report(_metrics(metric))


def report_final_result(metric):
    if _state["final"]:
        raise RuntimeError("nni: report_final_result() is called twice in one trial")
    _state["final"] = True
    tunedeck.report(_metrics(metric))
    tunedeck.done()


def get_trial_id():
    return os.environ.get("TUNEDECK_TRIAL_ID", "STANDALONE")


def get_experiment_id():
    return os.environ.get("TUNEDECK_EXPERIMENT", "STANDALONE")


def get_sequence_id():
    """The trial's number in the experiment, from 0 (t00003 is 3)."""
    digits = "".join(c for c in get_trial_id() if c.isdigit())
    return int(digits) if digits else 0


def get_trial_dir():
    return tunedeck.get_trial_dir()
