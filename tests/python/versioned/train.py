# A deterministic trainable: its losses depend only on its config and on model.py's SCALE (and on
# extra.py's OFFSET when that untracked file is there), so a run re-created from its code
# version reports the same numbers, bit for bit.
import math
import random

import tunedeck
from model import SCALE

try:
    from extra import OFFSET
except ImportError:
    OFFSET = 0.0

config = tunedeck.get_config()
noise = random.Random(int(config["x"] * 1e6))
for step in range(1, 5):
    tunedeck.report({"loss": math.sin(config["x"] * step) * SCALE + OFFSET + noise.random() / 7})
