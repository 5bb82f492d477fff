"""What Tuner.fit() and tune.run() return, read from the experiment's history by Tunedeck's
analysis (tunedeck_analysis): Ray's ResultGrid and Result, and tune.run's ExperimentAnalysis.
The best trial is the engine's rule (`tunedeck-engine best`), with Ray's scopes."""

import os
import sqlite3

import tunedeck


class TuneError(RuntimeError):
    """Ray's TuneError: tune.run raises it when trials errored (raise_on_failed_trial)."""


class TrialError(RuntimeError):
    """A trial's error, as Result.error gives it."""


def _checkpoints(folder):
    """{trial_id: [(iteration, path)]} of the checkpoints the history keeps, oldest first."""
    database = os.path.join(folder, "experiment.sqlite")
    connection = sqlite3.connect("file:%s?mode=ro" % database, uri=True, timeout=10)
    try:
        rows = connection.execute("SELECT trial_id, iteration, path FROM checkpoints "
                                  "WHERE deleted = 0 ORDER BY trial_id, iteration, id").fetchall()
    finally:
        connection.close()
    kept = {}
    for trial, iteration, path in rows:
        if os.path.isdir(path):
            kept.setdefault(trial, []).append((iteration, path))
    return kept


def _full_config(trial, constants):
    """The config as the trainable saw it: the recorded one, with the values only Python could
    hold (the param_space's non-JSON constants, and what sample_from functions returned in the
    trial, kept in its folder)."""
    import copy
    import json

    config = copy.deepcopy(trial["config"])

    def merge(target, values):
        for name, value in values.items():
            if isinstance(value, dict) and isinstance(target.get(name), dict):
                merge(target[name], value)
            elif not callable(getattr(value, "func", None)):  # not a sample_from Function
                target[name] = value

    merge(config, constants or {})
    try:
        with open(os.path.join(trial["logdir"], "sample_from.json"), encoding="utf-8") as f:
            drawn = json.load(f)
    except (OSError, ValueError):
        drawn = {}
    from ray.tune.search.sample import _set_at_path

    for path, value in drawn.items():
        config.pop(path, None)  # a define-by-run name 'a/b', recorded flat, nests as in Ray
        _set_at_path(config, path, value)
    return config


class Result:
    """One trial: metrics (its last result, with "config"), config, checkpoint (the latest kept),
    path (its folder), error, metrics_dataframe (every result), best_checkpoints."""

    def __init__(self, trial, analysis, checkpoints, constants=None):
        self._analysis = analysis
        self.trial_id = trial["trial_id"]
        self.config = _full_config(trial, constants)
        self.metrics = dict(trial["last_result"] or {}, config=self.config)
        self.metrics.setdefault("trial_id", self.trial_id)
        self.path = trial["logdir"]
        self.log_dir = self.path
        self.status = trial["status"]
        self.error = TrialError(trial["error"]) if trial["status"] == "ERROR" else None
        self.best_checkpoints = []
        results = {r.get("training_iteration"): r for r in analysis.results(self.trial_id)}
        for iteration, path in checkpoints:
            self.best_checkpoints.append((tunedeck.Checkpoint(path),
                                          results.get(iteration, {})))
        self.checkpoint = self.best_checkpoints[-1][0] if self.best_checkpoints else None

    @property
    def metrics_dataframe(self):
        return self._analysis.trial_dataframes.get(self.trial_id)

    def __repr__(self):
        return "Result(trial_id=%r, metrics=%r, path=%r)" % (
            self.trial_id, {k: v for k, v in self.metrics.items() if k != "config"}, self.path)


class ResultGrid:
    """Ray's ResultGrid: the trials of the experiment, in the order they were created."""

    def __init__(self, analysis, metric=None, mode=None, constants=None):
        self._analysis = analysis
        self._metric, self._mode = metric, mode
        checkpoints = _checkpoints(analysis.folder)
        self._results = [Result(t, analysis, checkpoints.get(t["trial_id"], []), constants)
                         for t in analysis.trials()]
        self.experiment_path = analysis.folder

    def __len__(self):
        return len(self._results)

    def __getitem__(self, index):
        return self._results[index]

    def __iter__(self):
        return iter(self._results)

    @property
    def errors(self):
        return [r.error for r in self._results if r.error is not None]

    @property
    def num_errors(self):
        return len(self.errors)

    @property
    def num_terminated(self):
        return sum(1 for r in self._results if r.status == "TERMINATED")

    def get_best_result(self, metric=None, mode=None, scope="last", filter_nan_and_inf=True):
        metric = metric or self._metric
        mode = mode or self._mode
        if metric is None or mode is None:
            raise ValueError("get_best_result() needs a metric and a mode: pass them here or "
                             "in TuneConfig(metric=..., mode=...)")
        best = self._analysis.best_trial(metric=metric, mode=mode, scope=scope)
        if best is None:
            raise RuntimeError("no trial reported %r: there is no best result" % metric)
        return next(r for r in self._results if r.trial_id == best["trial_id"])

    def get_dataframe(self, filter_metric=None, filter_mode=None):
        return self._analysis.dataframe(metric=filter_metric, mode=filter_mode)

    def __repr__(self):
        return "ResultGrid<[%s]>" % ", ".join(repr(r) for r in self._results)


class Trial:
    """A trial as tune.run's ExperimentAnalysis gives it."""

    def __init__(self, result):
        self.trial_id = result.trial_id
        self.config = result.config
        self.last_result = {k: v for k, v in result.metrics.items() if k != "config"}
        self.logdir = self.local_path = self.path = result.path
        self.status = result.status
        self.checkpoint = result.checkpoint
        self.error = result.error

    def __str__(self):
        return self.trial_id

    __repr__ = __str__


class ExperimentAnalysis:
    """tune.run's result, with Ray's names (best_config, best_trial, best_result, ... are
    properties, as in Ray; the get_best_* methods take metric, mode and scope)."""

    def __init__(self, analysis, metric=None, mode=None, constants=None):
        self._analysis = analysis
        self.default_metric, self.default_mode = metric, mode
        self._grid = ResultGrid(analysis, metric, mode, constants)
        self.trials = [Trial(r) for r in self._grid]
        self.experiment_path = analysis.folder

    def _best(self, metric, mode, scope="last"):
        return self._grid.get_best_result(metric or self.default_metric,
                                          mode or self.default_mode, scope)

    def get_best_trial(self, metric=None, mode=None, scope="last", filter_nan_and_inf=True):
        best = self._best(metric, mode, scope)
        return next(t for t in self.trials if t.trial_id == best.trial_id)

    def get_best_config(self, metric=None, mode=None, scope="last"):
        return self._best(metric, mode, scope).config

    def get_best_checkpoint(self, trial, metric=None, mode=None):
        trial_id = getattr(trial, "trial_id", trial)
        result = next(r for r in self._grid if r.trial_id == trial_id)
        metric = metric or self.default_metric
        if not result.best_checkpoints or metric is None:
            return result.checkpoint
        sign = -1 if (mode or self.default_mode) == "min" else 1
        scored = [(c, m.get(metric)) for c, m in result.best_checkpoints
                  if isinstance(m.get(metric), (int, float))]
        return max(scored, key=lambda cm: sign * cm[1])[0] if scored else result.checkpoint

    def get_all_configs(self):
        return {t.logdir: t.config for t in self.trials}

    @property
    def best_trial(self):
        return self.get_best_trial()

    @property
    def best_config(self):
        return self.get_best_config()

    @property
    def best_result(self):
        return self.best_trial.last_result

    @property
    def best_logdir(self):
        return self.best_trial.logdir

    @property
    def best_checkpoint(self):
        return self.get_best_checkpoint(self.best_trial)

    @property
    def best_dataframe(self):
        return self._analysis.trial_dataframes.get(self.best_trial.trial_id)

    @property
    def results(self):
        return {t.trial_id: t.last_result for t in self.trials}

    @property
    def results_df(self):
        return self._analysis.dataframe()

    def dataframe(self, metric=None, mode=None):
        return self._analysis.dataframe(metric=metric, mode=mode)

    @property
    def trial_dataframes(self):
        return {t.logdir: df for t, df in zip(
            self.trials, [self._analysis.trial_dataframes.get(t.trial_id) for t in self.trials])}
