"""Ray Tune's stoppers. MaximumIterationStopper and TimeoutStopper become the experiment's
`stop: {training_iteration: N}` and `time_budget_s`; any other Stopper (and a plain function) is
called in the trial process after each of its reports, with Ray's (trial_id, result), and a true
answer ends that trial. stop_all() cannot end the other trials from there: a Stopper overriding
it is refused."""

import time


class Stopper:
    def __call__(self, trial_id, result):
        return False

    def stop_all(self):
        return False


class MaximumIterationStopper(Stopper):
    def __init__(self, max_iter):
        self.max_iter = max_iter

    def __call__(self, trial_id, result):
        return result.get("training_iteration", 0) >= self.max_iter


class TimeoutStopper(Stopper):
    def __init__(self, timeout):
        seconds = getattr(timeout, "total_seconds", None)
        self.timeout = float(seconds() if seconds else timeout)
        self.start = time.time()

    def __call__(self, trial_id, result):
        return False


class FunctionStopper(Stopper):
    def __init__(self, function):
        self.function = function

    def __call__(self, trial_id, result):
        return bool(self.function(trial_id, result))


class TrialPlateauStopper(Stopper):
    """Ray's: stops a trial whose metric's last `num_results` values have a standard deviation
    at most `std`, after `grace_period` results."""

    def __init__(self, metric, std=0.01, num_results=4, grace_period=4,
                 metric_threshold=None, mode=None):
        self.metric, self.std, self.num_results = metric, std, num_results
        self.grace_period, self.threshold, self.mode = grace_period, metric_threshold, mode
        self.seen = {}

    def __call__(self, trial_id, result):
        values = self.seen.setdefault(trial_id, [])
        values.append(float(result.get(self.metric)))
        if len(values) < max(self.grace_period, self.num_results):
            return False
        last = values[-self.num_results:]
        if self.threshold is not None and self.mode is not None:
            value = last[-1]
            if (self.mode == "min" and value > self.threshold) or \
                    (self.mode == "max" and value < self.threshold):
                return False
        mean = sum(last) / len(last)
        return (sum((v - mean) ** 2 for v in last) / len(last)) ** 0.5 <= self.std


class CombinedStopper(Stopper):
    def __init__(self, *stoppers):
        self.stoppers = stoppers

    def __call__(self, trial_id, result):
        return any(s(trial_id, result) for s in self.stoppers)


class ExperimentPlateauStopper(Stopper):
    def __init__(self, *args, **kwargs):
        from ray import unsupported

        unsupported("ExperimentPlateauStopper (it ends every trial from the driver)",
                    "use TrialPlateauStopper, or time_budget_s / num_samples to bound the run")
