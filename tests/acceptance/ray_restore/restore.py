"""Continues the interrupted run of train_slow.py, as Ray users do after a crash."""
import os
import sys

from ray import tune

from train_slow import slow_steps

path = os.path.join(sys.argv[1], "slow_steps")
assert tune.Tuner.can_restore(path)
results = tune.Tuner.restore(path, trainable=slow_steps).fit()
best = results.get_best_result()
print("restored: %d trials, best speed %s, progress %s"
      % (len(results), best.config["speed"], best.metrics["progress"]))
