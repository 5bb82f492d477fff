"""The toy problem of the PBT paper (Jaderberg et al., 2017, section 4.1): maximise
Q(theta) = 1.2 - (theta0^2 + theta1^2), but training only sees the surrogate
Q_hat = 1.2 - (h0 theta0^2 + h1 theta1^2), whose weights h0 and h1 are the hyperparameters.
A trial with h = (1, 0) or (0, 1) alone stalls at Q = 0.39; a population that copies and
perturbs gets to the optimum. Each iteration is a few gradient-ascent steps on Q_hat; `Q` is reported.
theta and the step count live in the checkpoint, so an exploit copies them. Standard library only.
"""
import json
import os
import time

import tunedeck

STEPS_PER_ITERATION = 4
LEARNING_RATE = 0.01
# A real step takes time; without it one trial would finish before the other starts, and a
# population that never overlaps has nobody to copy.
SECONDS_PER_ITERATION = 0.05


def main():
    config = tunedeck.get_config()
    h = (float(config.get("h0", 1.0)), float(config.get("h1", 1.0)))
    state = {"theta": [0.9, 0.9], "step": 0}
    restore = tunedeck.get_checkpoint()
    if restore:
        with open(os.path.join(restore, "theta.json")) as f:
            state = json.load(f)

    def save(folder):
        with open(os.path.join(folder, "theta.json"), "w") as f:
            json.dump(state, f)

    tunedeck.on_save(save)
    # Trains until the engine stops it (`stop:` in the experiment): after an exploit the trial
    # goes on from the copied state, so its own iteration count says nothing about theta.
    while True:
        theta = state["theta"]
        for _ in range(STEPS_PER_ITERATION):
            theta = [t - LEARNING_RATE * 2 * hk * t for t, hk in zip(theta, h)]
            state["step"] += 1
        state["theta"] = theta
        time.sleep(SECONDS_PER_ITERATION)
        q = 1.2 - (theta[0] ** 2 + theta[1] ** 2)
        tunedeck.report({"Q": q, "theta0": theta[0], "theta1": theta[1]})


if __name__ == "__main__":
    main()
