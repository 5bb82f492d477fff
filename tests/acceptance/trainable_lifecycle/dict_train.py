"""A function trainable that checkpoints a dict each step and crashes once after step 3."""
import os

import tunedeck
from tunedeck import Checkpoint

config = tunedeck.get_config()
start, value = 0, 0
checkpoint = tunedeck.get_checkpoint()
if checkpoint:
    state = checkpoint.to_dict()
    start, value = state["step"], state["value"]
    with open(os.path.join(tunedeck.get_trial_dir(), "resumed.txt"), "a") as f:
        f.write("%d %d\n" % (start, value))
for step in range(start + 1, 6):
    value += config["step_size"]
    tunedeck.report({"value": value},
                    checkpoint=Checkpoint.from_dict({"step": step, "value": value}))
    marker = os.path.join(tunedeck.get_trial_dir(), "crashed")
    if step == 3 and not os.path.exists(marker):
        open(marker, "w").close()
        raise RuntimeError("crash after step 3")
