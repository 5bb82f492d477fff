"""A pruned objective: one report per epoch, no checkpoints, no save function. Weak configs
train slower (a bigger model), so the median rule sees every other trial ahead of them."""
import time

import tunedeck

config = tunedeck.get_config()
for epoch in range(1, 21):
    time.sleep(0.03 if config["quality"] >= 0.5 else 0.12)
    tunedeck.report({"accuracy": config["quality"] * epoch})
