"""A Ray Tune script whose run the user interrupts with Ctrl-C (restore.py continues it)."""
import json
import os
import tempfile
import time

from ray import train, tune
from ray.train import Checkpoint


def slow_steps(config):
    step = 0
    checkpoint = train.get_checkpoint()
    if checkpoint:
        with checkpoint.as_directory() as folder:
            with open(os.path.join(folder, "step.json")) as f:
                step = json.load(f)["step"]
    while step < 12:
        step += 1
        time.sleep(0.25)
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "step.json"), "w") as f:
                json.dump({"step": step}, f)
            train.report({"progress": step * config["speed"]},
                         checkpoint=Checkpoint.from_directory(folder))


if __name__ == "__main__":
    tuner = tune.Tuner(slow_steps, param_space={"speed": tune.grid_search([1, 2])},
                       tune_config=tune.TuneConfig(metric="progress", mode="max"),
                       run_config=train.RunConfig(name="slow_steps"))
    try:
        tuner.fit()
    except KeyboardInterrupt:
        print("interrupted")
