"""A Ray 2.x style function trainable: a checkpoint folder every epoch, handed over with the
report; restored with get_checkpoint() after the crash it simulates once at epoch 3 (a
preempted machine)."""
import json
import os
import tempfile

import tunedeck
from tunedeck import Checkpoint


def log_line(name, text):
    # The user's own record of what ran, in the trial's folder.
    with open(os.path.join(tunedeck.get_trial_dir(), name), "a") as f:
        f.write(text + "\n")


def train_func(config):
    start = 1
    weight = 1.0
    checkpoint = tunedeck.get_checkpoint()
    if checkpoint:
        with checkpoint.as_directory() as checkpoint_dir:
            with open(os.path.join(checkpoint_dir, "model.json")) as f:
                state = json.load(f)
        weight = state["weight"]
        start = state["epoch"] + 1
        log_line("restored.txt", str(state["epoch"]))

    for epoch in range(start, config["epochs"] + 1):
        weight -= config["lr"] * weight
        log_line("epochs.txt", str(epoch))

        if config["checkpoint_folder"] == "tempdir":
            checkpoint_dir = tempfile.mkdtemp()
            log_line("tempdirs.txt", checkpoint_dir)
        else:
            checkpoint_dir = os.path.join(tunedeck.get_trial_dir(), "epoch_%d" % epoch)
            os.makedirs(checkpoint_dir)
        with open(os.path.join(checkpoint_dir, "model.json"), "w") as f:
            json.dump({"epoch": epoch, "weight": weight}, f)

        tunedeck.report({"loss": weight, "epoch": epoch},
                        checkpoint=Checkpoint.from_directory(checkpoint_dir))

        crashed_before = os.path.join(tunedeck.get_trial_dir(), "crashed_once")
        if epoch == 3 and not os.path.exists(crashed_before):
            open(crashed_before, "w").close()
            os._exit(1)


if __name__ == "__main__":
    train_func(tunedeck.get_config())
