# Five curves of a loss, one per `shape`, each the best trial under exactly one of Ray's scopes:
# dip (all: its best value), steady (avg), late (last-5-avg), jump (last), ten (last-10-avg).
import time

import tunedeck

CURVES = {
    "dip": [1.0, 1.0, 0.05] + [1.0] * 9,
    "steady": [0.5] * 12,
    "late": [0.9] * 7 + [0.3] * 5,
    "jump": [0.8] * 11 + [0.1],
    "ten": [2.0, 2.0] + [0.4] * 10,
}

config = tunedeck.get_config()
for step, loss in enumerate(CURVES[config["shape"]], start=1):
    time.sleep(0.03)  # long enough for the agent to sample the trial's CPU and memory
    tunedeck.report({"loss": loss, "val": {"loss": loss * config["model"]["lr"]},
                     "stable": loss < 1.0, "step_loss": loss + step})
