"""A trainable whose behaviour the integration tests choose through its config:

  iterations     how many reports (default 10)       sleep        seconds per iteration
  crash_at       exit 3 at this iteration, once per trial (a marker file in the trial folder)
  always_crash   exit 3 at crash_at on every attempt
  nan_at         report the metric as NaN here       string_at    report the metric as a string
  flood_at       write a 100 MB line on the channel  hang_at      stop talking forever
  garbage_at     write a line that is not JSON on the channel
  nul_at         write a report whose line ends in a NUL byte (the engine cannot read it)
  huge_iteration_at  report training_iteration 1e300 here (beyond any whole-number counter)
  ignore_sigterm keep running when asked to stop by SIGTERM (the agent then uses SIGKILL)
  checkpoint_mb  size of each checkpoint (default: a few bytes)
  argv_value     compare with sys.argv[1] (placeholders) and report it back
  grow_mb        take (and touch) this many MiB more memory at each iteration, keeping it all
  memory_limit_mb  cap the trial's address space (ulimit -v) at this many MiB from the start

The metric `score` grows with `x` (a config value) and the iteration, so `best` is predictable.
Every start logs `start iteration=N restore=PATH` so tests can see where an attempt began.
"""
import json
import os
import resource
import signal
import sys
import time

import tunedeck

config = tunedeck.get_config()
if config.get("ignore_sigterm"):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
iterations = int(config.get("iterations", 10))
if "memory_limit_mb" in config:
    limit = int(config["memory_limit_mb"]) << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
held = []
state = {"it": 0}
restore = tunedeck.get_checkpoint()
if restore:
    with open(os.path.join(restore, "state.json")) as f:
        state = json.load(f)
print("start iteration=%d restore=%s" % (tunedeck.get_iteration(), restore or ""), flush=True)


def save(folder):
    with open(os.path.join(folder, "state.json"), "w") as f:
        json.dump(state, f)
    size = int(config.get("checkpoint_mb", 0) * 1024 * 1024)
    if size:
        with open(os.path.join(folder, "blob.bin"), "wb") as f:
            f.write(b"\0" * size)


tunedeck.on_save(save)
marker = os.path.join(tunedeck.get_trial_dir(), "crashed-once")
x = float(config.get("x", 1.0))
while state["it"] < iterations:
    state["it"] += 1
    it = state["it"]
    time.sleep(float(config.get("sleep", 0)))
    if "grow_mb" in config:
        more = bytearray(int(config["grow_mb"]) << 20)
        more[::4096] = b"\1" * (len(more) // 4096)  # touch every page: resident, not just mapped
        held.append(more)
    if it == config.get("crash_at") and (config.get("always_crash") or not os.path.exists(marker)):
        open(marker, "w").close()
        print("crashing on purpose at iteration %d" % it, flush=True)
        sys.exit(3)
    if it == config.get("hang_at"):
        time.sleep(3600)
    if it == config.get("garbage_at"):
        write_fd = int(os.environ["TUNEDECK_CHANNEL"].split(",")[1])
        os.write(write_fd, b"epoch 3 done, loss=0.5\n")
        time.sleep(3600)
    if it == config.get("nul_at"):
        write_fd = int(os.environ["TUNEDECK_CHANNEL"].split(",")[1])
        os.write(write_fd, b'{"type":"report","metrics":{"score":1}}\0\n')
        time.sleep(3600)
    if it == config.get("flood_at"):
        write_fd = int(os.environ["TUNEDECK_CHANNEL"].split(",")[1])
        chunk = b"x" * (1024 * 1024)
        for _ in range(100):
            os.write(write_fd, chunk)
        os.write(write_fd, b"\n")
        time.sleep(3600)
    metrics = {"score": x * it, "loss": 1.0 / (x * it)}
    if it == config.get("nan_at"):
        metrics["score"] = float("nan")
    if it == config.get("string_at"):
        metrics["score"] = "high"
    if it == config.get("huge_iteration_at"):
        metrics["training_iteration"] = 1e300
    if "argv_value" in config:
        metrics["argv"] = sys.argv[1] if len(sys.argv) > 1 else ""
    tunedeck.report(metrics)
