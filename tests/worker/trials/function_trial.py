"""A function-style trial: counts steps, saves and restores its step through the SDK.

Config: steps (how many reports), save (register a save function, default true),
checkpoint_dir (write its own checkpoint there at step `checkpoint_at` and report it),
nan (also report a NaN metric), window (the report window it asks for; 1 by default).
"""
import json
import os

import tunedeck

config = tunedeck.get_config()
state = {"step": 0}
restore = tunedeck.get_checkpoint()
if restore:
    with open(os.path.join(restore, "state.json")) as f:
        state = json.load(f)


def save(path):
    with open(os.path.join(path, "state.json"), "w") as f:
        json.dump(state, f)
    os.makedirs(os.path.join(path, "weights"), exist_ok=True)
    with open(os.path.join(path, "weights", "layer0.bin"), "wb") as f:
        f.write(b"\x00" * 4096)


tunedeck.set_report_window(config.get("window", 1))
if config.get("save", True):
    tunedeck.on_save(save)

tunedeck.log("starting at step %d" % state["step"])
while state["step"] < config.get("steps", 5):
    state["step"] += 1
    metrics = {
        "step": state["step"],
        "loss": 1.0 / state["step"],
        "restored": restore is not None,
        "iteration_seen": tunedeck.get_iteration(),
    }
    if config.get("nan"):
        metrics["bad"] = float("nan")
        metrics["huge"] = float("inf")
    checkpoint = None
    if config.get("checkpoint_dir") and state["step"] == config.get("checkpoint_at", 1):
        checkpoint = config["checkpoint_dir"]
        os.makedirs(checkpoint, exist_ok=True)
        save(checkpoint)
    tunedeck.report(metrics, checkpoint=checkpoint)
