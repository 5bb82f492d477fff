"""A PBT function trainable: its state travels in the checkpoints it reports, every 5
iterations from the first."""
import json
import os
import random
import tempfile
import time

import tunedeck
from tunedeck import Checkpoint


def train(config):
    step, score = 0, 0.0
    checkpoint = tunedeck.get_checkpoint()
    if checkpoint:
        with checkpoint.as_directory() as folder:
            with open(os.path.join(folder, "state.json")) as f:
                state = json.load(f)
        step, score = state["step"], state["score"]
    while True:
        step += 1
        score += config["lr"] * random.random()
        time.sleep(0.01)
        metrics = {"score": score, "lr": config["lr"]}
        if step % 5 == 1:
            with tempfile.TemporaryDirectory() as folder:
                with open(os.path.join(folder, "state.json"), "w") as f:
                    json.dump({"step": step, "score": score}, f)
                tunedeck.report(metrics, checkpoint=Checkpoint.from_directory(folder))
        else:
            tunedeck.report(metrics)


if __name__ == "__main__":
    train(tunedeck.get_config())
