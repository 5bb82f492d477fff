"""A trainable for the GPU tests. It tells the fake NVML driver (the file named by
TUNEDECK_FAKE_NVML_STATE) that its process uses each card of CUDA_VISIBLE_DEVICES, as a CUDA
program shows up in the real driver, then reports the devices it was given.

  iterations  reports (default 5)        sleep  seconds per iteration (default 0.3)
  lose_card   path of a marker file: the first trial to find it missing creates it, marks its
              own card lost in the driver, waits a moment and fails, as a CUDA program does
              when its GPU falls off the bus
"""
import os
import sys
import time

import tunedeck

config = tunedeck.get_config()
visible = os.environ.get("CUDA_VISIBLE_DEVICES")
state = os.environ.get("TUNEDECK_FAKE_NVML_STATE")
devices = [d for d in (visible or "").split(",") if d]
if state:
    with open(state, "a") as f:
        for uuid in devices:
            f.write("process uuid=%s pid=%d\n" % (uuid, os.getpid()))

marker = config.get("lose_card")
if marker and devices and not os.path.exists(marker):
    open(marker, "w").close()
    with open(state) as f:
        lines = f.read().splitlines()
    mine = "uuid=%s " % devices[0]
    lines = [l + " lost=1" if l.startswith("gpu ") and mine in l + " " else l for l in lines]
    with open(state + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(state + ".tmp", state)
    time.sleep(1.5)
    print("CUDA error: unspecified launch failure (the GPU fell off the bus)", flush=True)
    sys.exit(5)

for it in range(int(config.get("iterations", 5))):
    time.sleep(float(config.get("sleep", 0.3)))
    seen = visible if visible is not None else "<unset>"
    tunedeck.report({"score": it, "cuda_visible_devices": seen})
