"""A Ray 2.x style function trainable: one report per epoch, each with a checkpoint folder written
into a TemporaryDirectory, restored with get_checkpoint(). The tests choose through its config:

  iterations     epochs the loop runs if nobody stops it (default 20)
  sleep          seconds per epoch
  done_at        report {"done": True} at this epoch (Ray's way for a function to finish)
  done_call_at   call tunedeck.done() after this epoch's report, then go on reporting
  linger_s       once the engine stops the trial, write `stopped-at-N` into the trial folder and
                 take this long to exit (cleaning up), so a test can kill or interrupt the engine
                 between the stop and the exit
  crash_at       exit 3 at this epoch, every attempt

Every start logs `start epoch=N` so tests can count attempts.
"""
import json
import os
import sys
import tempfile
import time

import tunedeck

config = tunedeck.get_config()
iterations = int(config.get("iterations", 20))
epoch = 0
checkpoint = tunedeck.get_checkpoint()
if checkpoint:
    with open(os.path.join(checkpoint, "state.json")) as f:
        epoch = json.load(f)["epoch"]
print("start epoch=%d" % epoch, flush=True)


def linger():
    seconds = float(config.get("linger_s", 0))
    if seconds:
        marker = os.path.join(tunedeck.get_trial_dir(), "stopped-at-%d" % epoch)
        open(marker, "w").close()
        time.sleep(seconds)


x = float(config.get("x", 1.0))
while epoch < iterations:
    epoch += 1
    time.sleep(float(config.get("sleep", 0)))
    if epoch == config.get("crash_at"):
        sys.exit(3)
    metrics = {"score": x * epoch, "epoch": epoch}
    if epoch == config.get("done_at"):
        metrics["done"] = True
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "state.json"), "w") as f:
            json.dump({"epoch": epoch}, f)
        try:
            tunedeck.report(metrics, checkpoint=folder)
        except SystemExit:
            linger()
            raise
    if epoch == config.get("done_call_at"):
        tunedeck.done()
