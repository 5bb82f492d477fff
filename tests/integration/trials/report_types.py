"""Writes what the trial received into received.json in its folder: the Python type of each
config value, the raw TUNEDECK_CONFIG text and its argv; then reports score = 1."""
import json
import os
import sys

import tunedeck

config = tunedeck.get_config()
received = {
    "types": {key: type(value).__name__ for key, value in config.items()},
    "raw": os.environ.get("TUNEDECK_CONFIG", ""),
    "argv": sys.argv[1:],
}
with open(os.path.join(tunedeck.get_trial_dir(), "received.json"), "w") as out:
    json.dump(received, out)
tunedeck.report({"score": 1.0 + config.get("momentum", 0)})
