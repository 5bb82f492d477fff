"""A gang trial's rank without PyTorch: writes the environment the engine gave it to
env-rank<RANK>.json in the trial folder; rank 0 reports `iterations` results, the other ranks wait
for the engine to stop them, or (config `rank1_reports`) rank 1 calls report() itself."""
import json
import os
import time

import tunedeck

config = tunedeck.get_config()
rank = int(os.environ["RANK"])
names = ["WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "NODE_RANK", "MASTER_ADDR",
         "MASTER_PORT", "TUNEDECK_RANK", "TUNEDECK_TRIAL_ID"]
with open(os.path.join(tunedeck.get_trial_dir(), "env-rank%d.json" % rank), "w") as f:
    json.dump({name: os.environ.get(name) for name in names}, f)
print("rank %d of %s started" % (rank, os.environ["WORLD_SIZE"]), flush=True)
if rank == 0:
    for i in range(config["iterations"]):
        time.sleep(0.2)
        tunedeck.report({"score": i})
elif rank == 1 and config.get("rank1_reports"):
    tunedeck.report({"score": 100})
else:
    time.sleep(600)
