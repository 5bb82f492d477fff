"""Each GPU's utilisation over an experiment, from its history's node_usage table.

    python3 usage_summary.py EXPERIMENT_DIR
"""
import json
import sqlite3
import sys

db = sqlite3.connect(f"file:{sys.argv[1]}/experiment.sqlite?mode=ro", uri=True)
rows = db.execute("SELECT timestamp, node, data FROM node_usage ORDER BY seq").fetchall()
print(f"node_usage samples: {len(rows)}")
if not rows:
    sys.exit(0)
t0 = rows[0][0]
cards = {}
for t, node, data in rows:
    for gpu in json.loads(data).get("gpus", []):
        key = (node, gpu["index"], gpu["name"])
        c = cards.setdefault(key, {"util": [], "mem": [], "temp": [], "power": [], "trials": set(),
                                   "busy_samples": 0, "max_trials": 0})
        u = gpu.get("utilization_percent")
        if u is not None:
            c["util"].append(u)
        c["mem"].append(gpu.get("memory_used_mb", 0))
        if gpu.get("temperature_c") is not None:
            c["temp"].append(gpu["temperature_c"])
        if gpu.get("power_w") is not None:
            c["power"].append(gpu["power_w"])
        c["trials"].update(gpu.get("trials", []))
        c["max_trials"] = max(c["max_trials"], len(gpu.get("trials", [])))
        c["busy_samples"] += 1 if gpu.get("trials") else 0


def stats(values, fmt="{:.0f}"):
    if not values:
        return "n/a"
    return f"mean {fmt.format(sum(values) / len(values))}, max {fmt.format(max(values))}"


for (node, index, name), c in cards.items():
    print(f"GPU {node}/{index} {name}: utilisation % {stats(c['util'])}; memory MB "
          f"{stats(c['mem'])}; temperature C {stats(c['temp'])}; power W {stats(c['power'])}")
    print(f"  samples with trials on the card: {c['busy_samples']}, most trials at once: "
          f"{c['max_trials']}, trials seen: {len(c['trials'])}")
print("timeline (s since first sample: utilisation %, memory MB, trials):")
step = max(1, len(rows) // 30)
for t, node, data in rows[::step]:
    for gpu in json.loads(data).get("gpus", []):
        print(f"  {t - t0:6.1f}  {node}/{gpu['index']}  {gpu.get('utilization_percent')}%  "
              f"{gpu.get('memory_used_mb')} MB  {' '.join(gpu.get('trials', []))}")
