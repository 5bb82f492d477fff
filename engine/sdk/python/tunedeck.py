"""Tunedeck's trial SDK: report results of a training script to the Tunedeck engine.

One file, standard library only, Python 3.9+. It speaks the trial channel of PROTOCOL.md
(next to this file's folder): one JSON object per line over the pipe pair named by
TUNEDECK_CHANNEL. Without that variable (``python3 train.py`` by hand) every call still works:
reports are printed and the script carries on, so the same script runs inside and outside a
tuning run.

Function style::

    import tunedeck

    def save(path):
        torch.save(model.state_dict(), os.path.join(path, "model.pt"))

    tunedeck.on_save(save)                      # lets the engine ask for checkpoints
    config = tunedeck.get_config()
    restore = tunedeck.get_checkpoint()         # a folder to resume from, or None
    for step in range(tunedeck.get_iteration(), 100):
        loss = train_one_epoch(config["lr"])
        tunedeck.report({"loss": loss})         # blocks until the engine answers

Class style::

    class Train(tunedeck.Trainable):
        def setup(self, config): ...
        def step(self): return {"loss": ...}
        def save_checkpoint(self, checkpoint_dir): ...
        def load_checkpoint(self, checkpoint_dir): ...

    tunedeck.run(Train)

Experiments, from a notebook or a script (tunedeck_analysis/, beside this file; imported only
when one of these is called, so a trial's import stays as light as before)::

    analysis = tunedeck.run({"name": "mnist", ...})   # or tunedeck.run("experiment.yaml")
    analysis = tunedeck.load("~/tunedeck-results/mnist")
    analysis.best_config(scope="last-5-avg"); analysis.dataframe()
    study = tunedeck.to_optuna(analysis.folder)        # with optuna installed

Not thread-safe: call it from one thread (the training loop's).
"""

import atexit
import json
import math
import os
import select
import sys

__all__ = [
    "Checkpoint",
    "Trainable",
    "done",
    "load",
    "points_to_evaluate",
    "to_optuna",
    "get_checkpoint",
    "get_config",
    "get_iteration",
    "get_trial_dir",
    "heartbeat",
    "log",
    "on_save",
    "report",
    "run",
    "set_report_window",
    "suggest",
]


class _Session:
    """What this process knows about its trial; created on first use."""

    def __init__(self):
        self.config = None
        self.iteration = _int_env("TUNEDECK_ITERATION", 0)
        self.save_fn = None
        self.reader = None
        self.writer = None
        self.ended = False  # `done` sent, or paused: nothing more to say
        self.failed = False
        self.asked_window = 1  # set_report_window()
        self.granted_window = max(1, _int_env("TUNEDECK_REPORT_WINDOW", 1))
        self.unanswered = 0  # windowed reports sent whose answer has not been read
        self.stopped = False  # a windowed trial read `stop`
        self.pending = b""  # answers read ahead of time, in windowed mode
        self.raw_reads = False  # windowed once: answers are read with take_line() from then on
        spec = os.environ.get("TUNEDECK_CHANNEL", "")
        if spec:
            self._open_channel(spec)

    def _open_channel(self, spec):
        try:
            read_fd, write_fd = (int(part) for part in spec.split(","))
        except ValueError:
            raise RuntimeError(
                "tunedeck: TUNEDECK_CHANNEL must be READ_FD,WRITE_FD, not %r" % spec
            ) from None
        # Children of the trial (data loaders, shells) must not hold the channel open.
        os.set_inheritable(read_fd, False)
        os.set_inheritable(write_fd, False)
        self.reader = os.fdopen(read_fd, "r", encoding="utf-8")
        self.writer = os.fdopen(write_fd, "w", encoding="utf-8", buffering=1)

    @property
    def connected(self):
        return self.writer is not None

    def send(self, message):
        # allow_nan=False: every non-finite number was already turned into a string.
        line = json.dumps(message, separators=(",", ":"), allow_nan=False)
        self.writer.write(line + "\n")  # line buffered: one write per message

    @property
    def window(self):
        return min(self.asked_window, self.granted_window)

    def take_line(self, wait):
        """The next answer line in windowed mode (raw reads, so select() sees every byte not yet
        taken); None when `wait` is false and nothing has arrived."""
        fd = self.reader.fileno()
        while b"\n" not in self.pending:
            if not wait and not select.select([fd], [], [], 0)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise SystemExit("tunedeck: the worker closed the trial channel")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return self._parse(line.decode("utf-8"))

    def receive(self):
        if self.raw_reads:
            return self.take_line(True)  # once windowed, every answer is read the same way
        line = self.reader.readline()
        if not line:
            # The worker is gone; it kills its trials, so this is only reached in a race.
            raise SystemExit("tunedeck: the worker closed the trial channel")
        return self._parse(line)

    @staticmethod
    def _parse(line):
        try:
            answer = json.loads(line)
        except ValueError:
            raise RuntimeError("tunedeck: the engine sent an answer that is not JSON: %r" % line)
        if not isinstance(answer, dict):
            raise RuntimeError("tunedeck: the engine sent an answer that is not an object: %r" % line)
        return answer


_session = None


def _get_session():
    global _session
    if _session is None:
        _session = _Session()
    return _session


def _int_env(name, default):
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


def _jsonable(value):
    """Metrics as JSON can carry them: non-finite floats become "NaN"/"Infinity"/"-Infinity",
    numpy and torch scalars become Python numbers, anything else unknown becomes its str()."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return float(value)
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    item = getattr(value, "item", None)  # numpy / torch scalars
    if callable(item):
        try:
            return _jsonable(item())
        except (TypeError, ValueError):
            pass
    if hasattr(value, "__float__"):
        try:
            return _jsonable(float(value))
        except (TypeError, ValueError):
            pass
    return str(value)


def get_config():
    """The trial's hyperparameters (TUNEDECK_CONFIG), or {} when run by hand without it."""
    session = _get_session()
    if session.config is None:
        text = os.environ.get("TUNEDECK_CONFIG", "")
        try:
            session.config = json.loads(text) if text else {}
        except ValueError as error:
            raise ValueError("tunedeck: TUNEDECK_CONFIG is not JSON: %s" % error) from None
    return session.config


class Checkpoint(str):
    """A checkpoint folder, as Ray's ``Checkpoint``: ``Checkpoint.from_directory(path)`` hands
    one to ``report()``, ``get_checkpoint()`` returns one. It is also the folder's path, so
    ``os.path.join(tunedeck.get_checkpoint(), "model.pt")`` works as well."""

    @classmethod
    def from_directory(cls, path):
        return cls(os.path.abspath(os.fspath(path)))

    @property
    def path(self):
        return str(self)

    def as_directory(self):
        """A context manager giving the folder's path (Ray's ``with ckpt.as_directory() as d``)."""
        import contextlib

        return contextlib.nullcontext(str(self))

    def to_directory(self, path=None):
        """Copies the checkpoint into `path` (a new temporary folder when None); returns it."""
        import shutil
        import tempfile

        target = path if path is not None else tempfile.mkdtemp(prefix="checkpoint_")
        shutil.copytree(str(self), target, dirs_exist_ok=True)
        return target

    @classmethod
    def from_dict(cls, data):
        """A checkpoint holding a dict (Ray's ``Checkpoint.from_dict``): the dict is pickled into
        a new folder, in the trial's folder when there is one (report() then moves it into the
        checkpoint store), else a temporary one. ``to_dict()`` gives it back."""
        import pickle
        import tempfile

        if not isinstance(data, dict):
            raise TypeError("Checkpoint.from_dict() takes a dict, not %s" % type(data).__name__)
        parent = os.environ.get("TUNEDECK_TRIAL_DIR") or None
        folder = tempfile.mkdtemp(prefix="checkpoint_dict_", dir=parent)
        with open(os.path.join(folder, DICT_CHECKPOINT_FILE), "wb") as f:
            pickle.dump(data, f)
        return cls(folder)

    def to_dict(self):
        """The dict of a checkpoint made by from_dict() (or a Trainable's save_checkpoint()
        returning a dict). A checkpoint that is a folder of the trainable's own files has no
        dict: read them with as_directory()."""
        import pickle

        path = os.path.join(str(self), DICT_CHECKPOINT_FILE)
        if not os.path.isfile(path):
            raise ValueError("checkpoint %s holds files, not a dict (it was not made by "
                             "Checkpoint.from_dict): read them with as_directory()" % self)
        with open(path, "rb") as f:
            return pickle.load(f)


# The file a dict checkpoint is kept in (Checkpoint.from_dict, Trainable.save_checkpoint
# returning a dict), and the one naming the path a Trainable's save_checkpoint() returned inside
# its folder, so load_checkpoint() receives what save_checkpoint() gave, as in Ray.
DICT_CHECKPOINT_FILE = "dict_checkpoint.pkl"
RETURNED_PATH_FILE = ".tunedeck_checkpoint_path"


def get_checkpoint():
    """The checkpoint to resume from (a Checkpoint, which is also its folder's path), or None
    when the trial starts fresh."""
    restore = os.environ.get("TUNEDECK_RESTORE")
    return Checkpoint(restore) if restore else None


def get_trial_dir():
    """The trial's own folder (its log and scratch files); the working directory by hand."""
    return os.environ.get("TUNEDECK_TRIAL_DIR") or os.getcwd()


def get_iteration():
    """Training iterations done so far: the restored checkpoint's, plus one per report()."""
    return _get_session().iteration


def on_save(fn):
    """Registers fn(path), called when the engine asks for a checkpoint: fn writes the trial's
    state into the existing, empty folder `path`. Without it such requests are declined."""
    _get_session().save_fn = fn
    return fn


def set_report_window(reports):
    """Lets up to `reports` reports be on their way before report() waits for an answer
    (PROTOCOL.md, "Report windows"): fast iterations then cost no round trip each, and the
    engine's decisions reach the trial up to `reports - 1` iterations late. The engine grants at
    most TUNEDECK_REPORT_WINDOW (1, no window, where it may ask for a checkpoint or pause at any
    report). 1, the default, waits for every answer. Call it before the first report."""
    _get_session().asked_window = max(1, int(reports))


def report(metrics, checkpoint=None):
    """Reports the metrics of one training iteration and waits for the engine's decision.

    `checkpoint` is a folder the trial has just written a checkpoint into (a path or a
    Checkpoint). The engine keeps it before this returns: a folder inside the trial directory is
    moved into the checkpoint store, any other folder is copied and left as it was, so a
    ``tempfile.TemporaryDirectory()`` may be removed right after. A folder that is or contains
    the working directory, the trial directory or the experiment is refused (a warning, and the
    run counts it). Returns when the trial should go on. When the engine stops the
    trial this sends `done` and raises SystemExit(0); when it pauses the trial, the checkpoint is
    saved (see on_save) and SystemExit(0) is raised.
    """
    if not isinstance(metrics, dict):
        raise TypeError("tunedeck.report() takes a dict of metrics, not %s" % type(metrics).__name__)
    rank = os.environ.get("TUNEDECK_RANK", "0")
    if rank != "0":
        raise RuntimeError(
            "tunedeck.report() is called by rank %s: only rank 0 of a gang trial reports and "
            "checkpoints (call it under `if int(os.environ['RANK']) == 0`)" % rank)
    session = _get_session()
    if session.stopped:
        raise SystemExit(0)  # a windowed trial learns of a stop at its next report
    clean = _jsonable(metrics)
    iteration = clean.get("training_iteration")
    session.iteration = iteration if isinstance(iteration, int) else session.iteration + 1
    if not session.connected:
        print("tunedeck report: " + json.dumps(clean, sort_keys=True), flush=True)
        return
    message = {"type": "report", "metrics": clean}
    if checkpoint is not None:
        folder = getattr(checkpoint, "path", checkpoint)  # Ray's Checkpoint has .path
        message["checkpoint"] = os.path.abspath(os.fspath(folder))
    session.send(message)
    if session.window <= 1 and session.unanswered == 0:
        _follow_answers(session)
        return
    session.unanswered += 1
    session.raw_reads = True
    # A folder handed over must not change before the engine has it: that report waits for its
    # answer, as every report does without a window.
    may_stay = 0 if checkpoint is not None else session.window - 1
    _follow_windowed_answers(session, may_stay, min(may_stay, session.window // 2))


def _follow_windowed_answers(session, may_stay, resume_at):
    """Reads the answers that have arrived without waiting; waits only while more than
    `may_stay` reports are unanswered, then until no more than `resume_at` are, so a full
    window costs one wait for half a window of answers, not one per answer."""
    waiting = session.unanswered > may_stay
    while session.unanswered > 0:
        answer = session.take_line(waiting)
        if answer is None:
            return
        session.unanswered -= 1
        action = answer.get("action")
        if action == "continue":
            waiting = waiting and session.unanswered > resume_at
            continue
        if action == "stop":
            # Later reports were not recorded (the trial was being stopped).
            session.unanswered = 0
            session.stopped = True
            done()
            raise SystemExit(0)
        if action in ("save", "pause"):
            # The engine takes no report while a checkpoint it asked for is due: those sent after
            # the answered one get no answer. The trial has trained past the iteration the
            # checkpoint is for, so it declines, as a trial without a save function does.
            current = session.unanswered == 0
            session.unanswered = 0
            _save_on_request(session, action, answer.get("path"), current)
            _follow_answers(session)  # the answer to the checkpoint follows
            return
        if action == "refused":
            raise RuntimeError("tunedeck: " + str(answer.get("message")))
        raise RuntimeError("tunedeck: unknown answer from the engine: %r" % answer)


def _save_on_request(session, action, path, current):
    """Answers the engine's `save` or `pause`: the save function writes into `path`, unless
    there is none or the trial has trained past the iteration it is for (`current` false); a
    pause then ends the trial."""
    if session.save_fn is not None and path and current:
        session.save_fn(path)
        session.send({"type": "checkpoint", "path": path})
    else:
        session.send({"type": "checkpoint", "path": None})  # cannot save on request
    if action == "pause":
        session.ended = True  # a paused trial ends without `done`
        raise SystemExit(0)


def _follow_answers(session):
    while True:
        answer = session.receive()
        action = answer.get("action")
        if action == "continue":
            return
        if action == "stop":
            done()
            raise SystemExit(0)
        if action in ("save", "pause"):
            _save_on_request(session, action, answer.get("path"), True)
            continue  # the answer to the checkpoint follows
        if action == "refused":
            raise RuntimeError("tunedeck: " + str(answer.get("message")))
        raise RuntimeError("tunedeck: unknown answer from the engine: %r" % answer)


def suggest(name, distribution):
    """Asks the engine for a value of the parameter `name` while the trial runs (define-by-run,
    as Optuna's trial.suggest_*; PROTOCOL.md, `suggest`). `distribution` is a dict:
    {"type": "float" or "int", "low": L, "high": H, "step": S or None, "log": bool} or
    {"type": "categorical", "choices": [...]}. The engine's searcher answers; the parameter joins
    the trial's config. Asking again for a name returns its value. A request the engine refuses
    (a distribution that clashes with the one the name had) raises ValueError with its reason.
    Run by hand, the value is drawn at random here."""
    session = _get_session()
    if not session.connected:
        return _draw_locally(distribution)
    if session.unanswered:
        raise RuntimeError("tunedeck.suggest() cannot be called while windowed reports await "
                           "their answers")
    session.send({"type": "suggest", "name": str(name), "distribution": _jsonable(distribution)})
    answer = session.receive()
    action = answer.get("action")
    if action == "value":
        return answer.get("value")
    if action == "error":
        raise ValueError(str(answer.get("message")))
    raise RuntimeError("tunedeck: unknown answer to suggest from the engine: %r" % answer)


def _draw_locally(distribution):
    import random

    if distribution.get("type") == "categorical":
        return random.choice(list(distribution["choices"]))
    low, high = distribution["low"], distribution["high"]
    step = distribution.get("step")
    if distribution.get("log"):
        value = math.exp(random.uniform(math.log(low), math.log(high)))
        return min(max(round(value), low), high) if distribution.get("type") == "int" else value
    if step:
        return low + step * random.randint(0, int((high - low) // step))
    return random.uniform(low, high)


def log(message):
    """A line for the trial's log stream in the engine (stderr when run by hand)."""
    session = _get_session()
    if session.connected:
        session.send({"type": "log", "message": str(message)})
    else:
        print("tunedeck log: %s" % message, file=sys.stderr, flush=True)


def heartbeat():
    """Tells the engine the trial is alive during an iteration longer than its heartbeat
    timeout."""
    session = _get_session()
    if session.connected:
        session.send({"type": "heartbeat"})


def done():
    """Tells the engine the trial has finished on its own. Sent automatically when the script
    ends normally, so calling it is only needed to finish early."""
    session = _get_session()
    if session.connected and not session.ended:
        session.ended = True
        session.send({"type": "done"})


class Trainable:
    """Base class of the class style, with Ray Tune's lifecycle: the constructor sets
    ``self.config`` and calls setup(config); then step() per iteration; save_checkpoint() and
    load_checkpoint() for checkpoints; cleanup() at the end. Run it with tunedeck.run(MyTrainable).
    ``self.iteration`` (iterations done), ``self.trial_id`` and ``self.logdir`` are Ray's."""

    def __init__(self, config=None, **_ray_options):
        import copy

        self.config = config if config is not None else {}
        self.setup(copy.deepcopy(self.config))

    def setup(self, config):
        """Builds the model from the trial's config; called once, before any step."""

    def step(self):
        """Trains one iteration and returns its metrics (a dict). A true "done" entry ends the
        trial after that report."""
        raise NotImplementedError("a Trainable must implement step()")

    def save_checkpoint(self, checkpoint_dir):
        """Writes the trainable's state into the existing, empty folder checkpoint_dir. It may
        return None (the folder is the checkpoint), a dict (kept for load_checkpoint, as Ray 2),
        or the path of a file or folder inside checkpoint_dir (given to load_checkpoint, as Ray
        1)."""
        raise NotImplementedError

    def load_checkpoint(self, checkpoint):
        """Restores what save_checkpoint() wrote: the folder, the dict it returned, or the path
        it returned."""

    def cleanup(self):
        """Releases what setup() took; called once at the end, however the trial ends."""

    # Ray's attributes. `iteration` may be set by a trainable keeping its own count.
    @property
    def iteration(self):
        return self.__dict__.get("_own_iteration", get_iteration())

    @iteration.setter
    def iteration(self, value):
        self.__dict__["_own_iteration"] = value

    @property
    def training_iteration(self):
        return get_iteration()

    @property
    def trial_id(self):
        return os.environ.get("TUNEDECK_TRIAL_ID", "default")

    @property
    def trial_name(self):
        return self.trial_id

    @property
    def logdir(self):
        return get_trial_dir()


def _overrides(instance, name):
    method = getattr(type(instance), name, None)
    return method is not None and method is not getattr(Trainable, name, None)


def _save_trainable(trainable, folder):
    """Saves `trainable` into `folder` and keeps what save_checkpoint() returned there."""
    returned = trainable.save_checkpoint(folder)
    if isinstance(returned, dict):
        import pickle

        with open(os.path.join(folder, DICT_CHECKPOINT_FILE), "wb") as f:
            pickle.dump(returned, f)
    elif returned is not None:
        path = os.path.abspath(os.fspath(getattr(returned, "path", returned)))
        inside = os.path.relpath(path, os.path.abspath(folder))
        if inside.startswith(os.pardir):
            raise ValueError("save_checkpoint() returned %s, which is outside the folder it was "
                             "given (%s): write the checkpoint inside it" % (path, folder))
        if inside != os.curdir:
            with open(os.path.join(folder, RETURNED_PATH_FILE), "w", encoding="utf-8") as f:
                f.write(inside)


def _restore_argument(folder):
    """What load_checkpoint() receives for the checkpoint in `folder` (see save_checkpoint)."""
    folder = str(folder)
    dict_file = os.path.join(folder, DICT_CHECKPOINT_FILE)
    if os.path.isfile(dict_file):
        return Checkpoint(folder).to_dict()
    marker = os.path.join(folder, RETURNED_PATH_FILE)
    if os.path.isfile(marker):
        with open(marker, encoding="utf-8") as f:
            return os.path.join(folder, f.read().strip())
    return folder


def run(trainable, *args, **kwargs):
    """Two uses, told apart by what is passed:

    * a Trainable class (inside a trial): runs it until the engine stops or pauses it, or until
      step() says "done";
    * an experiment (a dict, or an experiment file's path; from a notebook or a script): runs it
      with the installed tunedeck-engine, shows its progress, and returns its analysis (see
      tunedeck_analysis.launcher.run_experiment for the options: results=, engine=, cwd=, env=,
      progress=)."""
    if not isinstance(trainable, type):
        from tunedeck_analysis import run_experiment

        return run_experiment(trainable, *args, **kwargs)
    _run_trainable(trainable)


def load(folder, metric=None, mode=None):
    """An experiment folder's results and best trial (Ray Tune's ExperimentAnalysis): results(),
    dataframe(), trials(), best_config(scope=...), best_trial(...)."""
    from tunedeck_analysis import load as load_experiment

    return load_experiment(folder, metric=metric, mode=mode)


def to_optuna(folder, **kwargs):
    """An optuna study holding an experiment's finished trials (needs optuna)."""
    from tunedeck_analysis import to_optuna as experiment_to_optuna

    return experiment_to_optuna(folder, **kwargs)


def points_to_evaluate(study, top=None, with_values=False):
    """An optuna study's completed trials' configs, best first, for search: points_to_evaluate."""
    from tunedeck_analysis import points_to_evaluate as study_points

    return study_points(study, top=top, with_values=with_values)


def _run_trainable(trainable_class, config=None):
    trainable = trainable_class(get_config() if config is None else config)
    try:
        restore = get_checkpoint()
        if restore:
            trainable.load_checkpoint(_restore_argument(restore))
        if _overrides(trainable, "save_checkpoint"):
            on_save(lambda folder: _save_trainable(trainable, folder))
        while True:
            metrics = trainable.step()
            if metrics is None:
                metrics = {}
            finished = bool(metrics.pop("done", False)) if isinstance(metrics, dict) else False
            report(metrics)
            if finished:
                break
    finally:
        trainable.cleanup()
    done()


def _on_uncaught(kind, value, traceback):
    _get_session().failed = True
    _previous_excepthook(kind, value, traceback)


def _at_exit():
    # A script that ends without an uncaught exception has finished: say `done` for it.
    if _session is None and not os.environ.get("TUNEDECK_CHANNEL"):
        return
    try:
        session = _get_session()
        if session.connected and not session.failed:
            done()
            session.writer.flush()
    except (OSError, ValueError, RuntimeError):
        pass  # the worker has gone, or never was: nothing to tell


_previous_excepthook = sys.excepthook
sys.excepthook = _on_uncaught
atexit.register(_at_exit)
