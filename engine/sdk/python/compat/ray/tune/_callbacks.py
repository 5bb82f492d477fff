"""Ray Tune's Callback API in the driver, fed by the engine's events as they arrive (the
`run --events` stream tunedeck.run follows): setup, on_trial_start, on_trial_result,
on_checkpoint, on_trial_complete, on_trial_error, on_experiment_end. The trials a callback sees
are the driver's view of them (trial_id, config, status, last_result, logdir, checkpoint). A
callback that raises is reported on stderr and not called again; the run goes on. One thread."""

import os
import sys
import traceback

import tunedeck


class Callback:
    """Ray's tune.Callback: override the hooks you need."""

    def setup(self, stop=None, num_samples=None, total_num_samples=None, **info):
        pass

    def on_step_begin(self, iteration, trials, **info):
        pass

    def on_step_end(self, iteration, trials, **info):
        pass

    def on_trial_start(self, iteration, trials, trial, **info):
        pass

    def on_trial_restore(self, iteration, trials, trial, **info):
        pass

    def on_trial_save(self, iteration, trials, trial, **info):
        pass

    def on_trial_result(self, iteration, trials, trial, result, **info):
        pass

    def on_trial_complete(self, iteration, trials, trial, **info):
        pass

    def on_trial_error(self, iteration, trials, trial, **info):
        pass

    def on_checkpoint(self, iteration, trials, trial, checkpoint, **info):
        pass

    def on_experiment_end(self, trials, **info):
        pass


class LiveTrial:
    def __init__(self, trial_id, config, folder):
        self.trial_id = trial_id
        self.config = config
        self.status = "PENDING"
        self.last_result = {}
        self.logdir = self.local_path = self.path = os.path.join(folder or "", "trials", trial_id)
        self.checkpoint = None
        self.error_message = None

    def __str__(self):
        return self.trial_id

    __repr__ = __str__


class CallbackRunner:
    """Turns events into callback calls; `__call__` is tunedeck.run's on_event."""

    def __init__(self, callbacks, stop, num_samples):
        self.callbacks = list(callbacks)
        self.trials = []
        self.by_id = {}
        self.folder = None
        self.iteration = 0
        self._call("setup", stop=stop, num_samples=num_samples, total_num_samples=num_samples)

    def _call(self, hook, *args, **kwargs):
        for callback in list(self.callbacks):
            try:
                getattr(callback, hook)(*args, **kwargs)
            except Exception:  # a user's callback must not end the run half way
                print("Tunedeck: %s.%s raised; it is not called again:\n%s"
                      % (type(callback).__name__, hook, traceback.format_exc()),
                      file=sys.stderr, flush=True)
                self.callbacks.remove(callback)

    def _trial(self, event):
        trial_id = event.get("trial")
        trial = self.by_id.get(trial_id)
        if trial is None and trial_id:
            trial = LiveTrial(trial_id, event.get("config") or {}, self.folder)
            self.by_id[trial_id] = trial
            self.trials.append(trial)
        return trial

    def __call__(self, event):
        kind = event.get("type")
        if kind == "experiment_started":
            self.folder = event.get("folder")
            return
        if kind == "experiment_finished":
            self._call("on_experiment_end", trials=self.trials)
            return
        trial = self._trial(event)
        if trial is None:
            return
        self.iteration += 1
        common = dict(iteration=self.iteration, trials=self.trials, trial=trial)
        if kind == "trial_added":
            trial.config = event.get("config") or trial.config
        elif kind == "trial_status":
            status, before = event.get("status"), trial.status
            trial.status = status
            if status == "RUNNING" and before != "RUNNING":
                hook = "on_trial_restore" if event.get("iteration") else "on_trial_start"
                self._call(hook, **common)
            elif status == "TERMINATED":
                self._call("on_trial_complete", **common)
            elif status == "ERROR":
                trial.error_message = event.get("reason")
                self._call("on_trial_error", **common)
        elif kind == "result":
            trial.last_result = dict(event.get("result") or {}, config=trial.config)
            self._call("on_trial_result", result=trial.last_result, **common)
        elif kind == "checkpoint" and event.get("path"):
            trial.checkpoint = tunedeck.Checkpoint(event["path"])
            self._call("on_trial_save", **common)
            self._call("on_checkpoint", checkpoint=trial.checkpoint, **common)
