"""Which trial is best: the engine's rule (engine/core/best_trial.h over the curves of
engine/store/history_reader.h, as `show`, `best` and the app read them), reproduced step for
step so `best_config()` names the trial `tunedeck-engine best` names, for every scope. The tests
compare the two on real experiment folders.

* A trial's curve is its metric's numeric values (booleans and strings left out) at the top-level
  key `metric`, or, when no key has that name, at its path through nested objects ("val/loss",
  as engine/store/result_metric.h reads it), in the order results were recorded; a result at an
  iteration the curve already reached (the trial was restored from an earlier checkpoint) drops
  the points from there on.
* Scopes are Ray Tune's: last, all (the best for the mode), avg, last-5-avg, last-10-avg.
* Best first for the mode; equal scores go to the lower trial id (the one created first).
Pure functions.
"""

import functools

SCOPES = ("last", "all", "avg", "last-5-avg", "last-10-avg")
DEFAULT_SCOPE = "last"


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def metric_value(result, metric):
    """The metric in one result: its top-level key, else its "a/b" path; None without it."""
    if not isinstance(result, dict):
        return None
    if metric in result or "/" not in metric:
        return result.get(metric)
    value = result
    for part in metric.split("/"):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def metric_curves(results, metric):
    """{trial_id: [value, ...]} from (trial_id, iteration, result) rows in recorded order."""
    curves = {}
    for trial_id, iteration, result in results:
        value = metric_value(result, metric)
        if not _is_number(value):
            continue
        iterations, values = curves.setdefault(trial_id, ([], []))
        kept = len(iterations)
        while kept > 0 and iterations[kept - 1] >= iteration:
            kept -= 1
        del iterations[kept:]
        del values[kept:]
        iterations.append(iteration)
        values.append(float(value))
    return {trial_id: values for trial_id, (_, values) in curves.items()}


def _mean(values):
    # Left to right, as std::accumulate does (Python 3.12's sum() compensates, which could
    # round differently and pick another trial on a tie of the last bit).
    total = 0.0
    for value in values:
        total += value
    return total / len(values)


def trial_score(values, mode, scope):
    if not values:
        return None
    if scope == "last":
        return values[-1]
    if scope == "all":
        return max(values) if mode == "max" else min(values)
    if scope == "avg":
        return _mean(values)
    if scope == "last-5-avg":
        return _mean(values[-5:])
    if scope == "last-10-avg":
        return _mean(values[-10:])
    raise ValueError("scope is one of %s, not %r" % (", ".join(SCOPES), scope))


def ranked_scores(results, metric, mode, scope=DEFAULT_SCOPE):
    """[(trial_id, score)] best first."""
    if mode not in ("min", "max"):
        raise ValueError("mode is min or max, not %r" % (mode,))
    if scope not in SCOPES:
        raise ValueError("scope is one of %s, not %r" % (", ".join(SCOPES), scope))
    scores = [(trial_id, trial_score(values, mode, scope))
              for trial_id, values in metric_curves(results, metric).items()]

    def order(a, b):
        if a[1] != b[1]:
            better = a[1] > b[1] if mode == "max" else a[1] < b[1]
            return -1 if better else 1
        return (a[0] > b[0]) - (a[0] < b[0])

    return sorted(scores, key=functools.cmp_to_key(order))
