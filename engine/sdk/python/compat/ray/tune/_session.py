"""What a Ray trainable calls inside its trial: train.report / session.report / tune.report,
tune.checkpoint_dir, train.get_checkpoint, get_context(). Each is Tunedeck's trial SDK
(tunedeck.py) under Ray's name; this file adds only what Ray's spellings need: keyword metrics,
Ray 1.x's checkpoint_dir() folders (handed over with the next report), and the stoppers a
script's `stop=` holds as Python (checked here, after each report). Trial process only; one
thread."""

import contextlib
import os
import tempfile

import tunedeck

# Set by the trial entry (_trial.py): callables of `stop=` (functions, Stopper objects).
_stoppers = []
_pending_checkpoint = [None]


def _stop_requested(metrics):
    trial_id = os.environ.get("TUNEDECK_TRIAL_ID", "default")
    result = dict(metrics, training_iteration=tunedeck.get_iteration())
    return any(stopper(trial_id, result) for stopper in _stoppers)


def report(metrics=None, checkpoint=None, **kwargs):
    """train.report(metrics, checkpoint=...), session.report(...), tune.report(**metrics)."""
    if metrics is None:
        metrics = {}
    elif not isinstance(metrics, dict):
        raise TypeError("report() takes a dict of metrics (or keywords), not %s"
                        % type(metrics).__name__)
    metrics = dict(metrics, **kwargs)
    if checkpoint is None and _pending_checkpoint[0] is not None:
        checkpoint, _pending_checkpoint[0] = _pending_checkpoint[0], None
    finished = bool(metrics.pop("done", False))
    tunedeck.report(metrics, checkpoint=checkpoint)
    if finished or (_stoppers and _stop_requested(metrics)):
        tunedeck.done()
        raise SystemExit(0)


@contextlib.contextmanager
def checkpoint_dir(step=None):
    """Ray 1.x's `with tune.checkpoint_dir(step=...) as d:`: a new folder to write into; it is
    handed to the engine with the next report, as Ray does."""
    parent = os.environ.get("TUNEDECK_TRIAL_DIR") or None
    folder = tempfile.mkdtemp(prefix="checkpoint_%s_" % ("x" if step is None else step),
                              dir=parent)
    yield folder
    _pending_checkpoint[0] = folder


def get_checkpoint():
    return tunedeck.get_checkpoint()


class TrainContext:
    """Ray's train.get_context() / tune.get_context()."""

    def get_trial_id(self):
        return os.environ.get("TUNEDECK_TRIAL_ID", "default")

    def get_trial_name(self):
        return self.get_trial_id()

    def get_trial_dir(self):
        return tunedeck.get_trial_dir()

    def get_experiment_name(self):
        return os.environ.get("TUNEDECK_EXPERIMENT", "default")

    def get_trial_resources(self):
        return None

    def get_world_size(self):
        return int(os.environ.get("TUNEDECK_WORLD_SIZE", "1"))

    def get_world_rank(self):
        return int(os.environ.get("TUNEDECK_RANK", "0"))

    def get_local_rank(self):
        return int(os.environ.get("LOCAL_RANK", "0"))

    def get_local_world_size(self):
        return int(os.environ.get("LOCAL_WORLD_SIZE", "1"))

    def get_node_rank(self):
        return int(os.environ.get("NODE_RANK", "0"))

    def get_storage(self):
        return None


_context = TrainContext()


def get_context():
    return _context


def get_trial_id():
    return _context.get_trial_id()


def get_trial_name():
    return _context.get_trial_name()


def get_trial_dir():
    return _context.get_trial_dir()


def get_experiment_name():
    return _context.get_experiment_name()


def get_world_size():
    return _context.get_world_size()


def get_world_rank():
    return _context.get_world_rank()


def get_local_rank():
    return _context.get_local_rank()


def is_session_enabled():
    return bool(os.environ.get("TUNEDECK_CHANNEL"))
