"""An experiment folder as Ray Tune's ExperimentAnalysis shows it: results as dicts or a pandas
DataFrame with Ray's column names, and the best trial by the engine's rule (scores.py).

    analysis = tunedeck.load("~/tunedeck-results/mnist")
    analysis.best_config(scope="last-5-avg")
    analysis.dataframe()                 # one row per trial: its last result
    analysis.dataframe(all_results=True) # every result

The folder is read once (reload() reads it again, e.g. while it runs). Not thread-safe.
"""

import os

from . import history, scores, spec_fields
from .code_version import read_code_version


def _flatten(value, prefix, out):
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            _flatten(inner, "%s/%s" % (prefix, key) if prefix else str(key), out)
    else:
        out[prefix] = value
    return out


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "dataframe() needs pandas (Debian: apt install python3-pandas; or pip install "
            "pandas); results() gives the same rows as a list of dicts") from None
    return pandas


class ExperimentAnalysis:
    def __init__(self, folder, metric=None, mode=None):
        self._metric, self._mode = metric, mode
        self._folder = os.path.abspath(os.path.expanduser(os.fspath(folder)))
        self.reload()

    def reload(self):
        h = history.History(self._folder)
        self._history = h
        self.folder, self.name, self.status = h.folder, h.name, h.status
        self.spec_text, self.seed = h.spec_text, h.seed
        self.objectives = spec_fields.objectives(h.spec_text)
        if self._metric is not None:
            # A metric the file does not name needs its mode (ranking says so when it is not).
            self.objectives = [(self._metric,
                                self._mode or dict(self.objectives).get(self._metric))]
        self.metric = self.objectives[0][0] if len(self.objectives) == 1 else None
        self.mode = self.objectives[0][1] if len(self.objectives) == 1 else None
        self.code_version = read_code_version(self.folder)
        return self

    def __repr__(self):
        return "<tunedeck ExperimentAnalysis %r: %d trials, %s>" % (
            self.name, len(self._history.trials), self.status)

    # --- rows -------------------------------------------------------------------------------

    def trials(self):
        """Every trial: trial_id, status, config, iteration, last_result, error, logdir, note
        (the researcher's note on it, or None), ..."""
        return [dict(t) for t in self._history.trials]

    def results(self, trial_id=None):
        """Every result as recorded (trial_id, training_iteration, the metrics), in order, each
        with its trial's config under "config"."""
        configs = {t["trial_id"]: t["config"] for t in self._history.trials}
        rows = []
        for result in self._history.result_dicts():
            if trial_id is None or result.get("trial_id") == trial_id:
                rows.append(dict(result, config=configs.get(result.get("trial_id"), {})))
        return rows

    def _rows(self, all_results, metric, mode):
        trials = {t["trial_id"]: t for t in self._history.trials}
        results = self._history.result_dicts()
        run_fields = self._history.run_fields()
        last = {}  # each trial's last recorded result
        for index, result in enumerate(results):
            last[result.get("trial_id")] = index
        if all_results:
            picked = [(result, index) for index, result in enumerate(results)]
        elif metric is not None:
            # Ray: with metric and mode, each trial's best result instead of its last.
            best = {}
            for index, result in enumerate(results):
                value = result.get(metric)
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    continue
                held = best.get(result.get("trial_id"))
                if held is None or (value > held[0][metric] if mode == "max" else
                                    value < held[0][metric]):
                    best[result.get("trial_id")] = (result, index)
            picked = [best[t] for t in trials if t in best]
        else:
            picked = [(t["last_result"], last.get(t["trial_id"])) for t in trials.values()
                      if t["last_result"]]
        rows = []
        for result, index in picked:
            trial = trials.get(result.get("trial_id"), {})
            row = _flatten(result, "", {})
            if index is not None:
                for key, value in run_fields[index].items():
                    if key == "done" or key not in row:  # a reported done is in done already
                        row[key] = value
            _flatten(trial.get("config", {}), "config", row)
            row["logdir"] = trial.get("logdir")
            rows.append(row)
        return rows

    def dataframe(self, metric=None, mode=None, all_results=False):
        """A pandas DataFrame in Ray's layout: the metrics (nested ones as "a/b"), trial_id,
        training_iteration, Ray's done, date, pid, hostname, node_ip, time_since_restore and
        experiment_id (taken from the history: README.md, "Ray's columns"), config/<param> and
        logdir. One row per trial, its last result (or its best by `metric` and `mode`, as
        Ray's), or every result with all_results=True."""
        pandas = _pandas()
        if metric is not None and mode not in ("min", "max"):
            raise ValueError("dataframe(metric=...) needs mode='min' or mode='max'")
        return pandas.DataFrame(self._rows(all_results, metric, mode))

    def system_usage(self, trial_id=None, as_dataframe=False):
        """Each trial's system health as its node sampled it every gpu_sample_s: dicts of
        trial_id, timestamp (Unix seconds), node, cpu_percent (of one core: 400 is four),
        rss_mb and gpu_memory_mb (None on a node without GPUs); a DataFrame with
        as_dataframe=True. Old samples are thinned (RUNTIME.md, "Monitoring")."""
        rows = [r for r in self._history.system_usage()
                if trial_id is None or r["trial_id"] == trial_id]
        return _pandas().DataFrame(rows) if as_dataframe else rows

    @property
    def trial_dataframes(self):
        """{trial_id: DataFrame of its results}, as Ray's."""
        pandas = _pandas()
        return {t["trial_id"]: pandas.DataFrame(
            [_flatten(r, "", {}) for r in self._history.result_dicts()
             if r.get("trial_id") == t["trial_id"]]) for t in self._history.trials}

    # --- the best trial ---------------------------------------------------------------------

    def _objective(self, metric, mode):
        if metric is None:
            if len(self.objectives) > 1:
                raise ValueError(
                    "the experiment has several objectives (%s): name one with metric=..."
                    % ", ".join(m for m, _ in self.objectives))
            if not self.objectives:
                raise ValueError("the experiment has no metric: name one with metric=..., "
                                 "mode=...")
            return self.objectives[0]
        if mode is None:
            mode = dict(self.objectives).get(metric)
            if mode is None:
                raise ValueError("%r is not an objective of the experiment: give mode=..."
                                 % metric)
        return metric, mode

    def ranked(self, metric=None, mode=None, scope=scores.DEFAULT_SCOPE):
        """[(trial_id, score)] best first, as `tunedeck-engine best --scope` ranks them."""
        metric, mode = self._objective(metric, mode)
        return scores.ranked_scores(self._history.results, metric, mode, scope)

    def best_trial(self, metric=None, mode=None, scope=scores.DEFAULT_SCOPE):
        """The best trial (a dict as trials() gives), or None when none has reported."""
        ranked = self.ranked(metric, mode, scope)
        if not ranked:
            return None
        trial = next(t for t in self.trials() if t["trial_id"] == ranked[0][0])
        trial["score"] = ranked[0][1]
        return trial

    def best_config(self, metric=None, mode=None, scope=scores.DEFAULT_SCOPE):
        trial = self.best_trial(metric, mode, scope)
        return None if trial is None else trial["config"]

    def best_result(self, metric=None, mode=None, scope=scores.DEFAULT_SCOPE):
        trial = self.best_trial(metric, mode, scope)
        return None if trial is None else trial["last_result"]

    # Ray Tune's spellings.
    get_best_config = best_config
    get_best_trial = best_trial

    @property
    def best_logdir(self):
        trial = self.best_trial()
        return None if trial is None else trial["logdir"]


def load(folder, metric=None, mode=None):
    """An ExperimentAnalysis of an experiment folder (<results root>/<experiment>)."""
    return ExperimentAnalysis(folder, metric=metric, mode=mode)
