"""A Ray 2.x style function trainable that checkpoints every 3 iterations and keeps its own
record, in its trial folder, of every iteration it runs and where each start began."""
import json
import os
import tempfile
import time

import tunedeck
from tunedeck import Checkpoint


def note(line):
    with open(os.path.join(tunedeck.get_trial_dir(), "iterations.txt"), "a") as f:
        f.write(line + "\n")


def main(config):
    iteration, loss = 0, 1.0
    checkpoint = tunedeck.get_checkpoint()
    if checkpoint:
        with open(os.path.join(checkpoint.path, "state.json")) as f:
            state = json.load(f)
        iteration, loss = state["iteration"], state["loss"]
    note("start %d" % iteration)
    while True:
        iteration += 1
        time.sleep(0.15)  # a training step
        loss *= 1.0 - config["lr"]
        note(str(iteration))
        if iteration % 3 == 0:
            with tempfile.TemporaryDirectory() as folder:
                with open(os.path.join(folder, "state.json"), "w") as f:
                    json.dump({"iteration": iteration, "loss": loss}, f)
                tunedeck.report({"loss": loss}, checkpoint=Checkpoint.from_directory(folder))
        else:
            tunedeck.report({"loss": loss})


if __name__ == "__main__":
    main(tunedeck.get_config())
