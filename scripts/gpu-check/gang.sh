#!/bin/bash
# Issue 20's check on a machine with an NVIDIA GPU: the DDP example (resources/examples/ddp) as
# gangs of 2 ranks, each rank given half of a card (gpu: 0.5) and training on CUDA tensors with
# gloo. Prints, from the run's SQLite and trial folders: each trial's status and world size, the
# ranks of each gang with their node and cards, each rank's CUDA_VISIBLE_DEVICES, the card
# memory each rank held (the agent's per-trial samples through NVML) and whether the ranks' weights
# agreed at every step. Uses the archive of make-bundle.sh, as run.sh does.
#
#   bash scripts/gpu-check/gang.sh ARCHIVE [OUT]
set -u
root=$PWD
archive=${1:?usage: bash scripts/gpu-check/gang.sh ARCHIVE [OUT]}
out=$(mkdir -p "${2:-gpu-check-out}" && cd "${2:-gpu-check-out}" && pwd)
mkdir -p build && tar -xJf "$archive" -C build || exit 1
built_in=$(cat build/source-dir.txt)
if [ "$built_in" != "$root" ] && [ ! -e "$built_in" ]; then
    mkdir -p "$(dirname "$built_in")" && ln -s "$root" "$built_in"
fi
export LD_LIBRARY_PATH=$root/build/lib
build/bin/tunedeck-worker --version >/dev/null 2>&1 || export LD_LIBRARY_PATH=$root/build/lib:$root/build/lib-cxx
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())"
cat >"$out/gpu-ddp.yaml" <<YAML
name: gpu-ddp
trainable:
  command: python3 train.py --lr {lr} --width 512 --device cuda --sleep 0.05
  working_dir: $root/resources/examples/ddp
search_space:
  lr: {grid: [0.02, 0.05]}
resources_per_trial: {cpu: 1, gpu: 0.5, workers: 2}
metric: val_loss
mode: min
stop: {training_iteration: 40}
checkpoint: {frequency: 10}
gpu_sample_s: 0.25
YAML
start=$(date +%s.%N)
build/bin/tunedeck-engine run "$out/gpu-ddp.yaml" --results "$out/res" --events "$out/events.jsonl" \
    >"$out/engine.log" 2>&1
echo "engine exit $? after $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
tail -12 "$out/engine.log"
env -u LD_LIBRARY_PATH python3 - "$out/res/gpu-ddp" <<'PY'
import glob, json, os, sqlite3, sys
folder = sys.argv[1]
db = sqlite3.connect(os.path.join(folder, "experiment.sqlite"))
for trial, status, failures in db.execute("SELECT id, status, failures FROM trials"):
    sizes = {r[0] for r in db.execute(
        "SELECT json_extract(data, '$.world_size') FROM results WHERE trial_id = ?", (trial,))}
    print(trial, status, "failures", failures, "world sizes", sorted(sizes))
for (payload,) in db.execute("SELECT payload FROM events WHERE type = 'trial_status' AND "
                             "json_extract(payload, '$.status') = 'RUNNING'"):
    p = json.loads(payload)
    print("RUNNING", p["trial"], "ranks", p.get("ranks"))
peak = {}
for (data,) in db.execute("SELECT data FROM node_usage"):
    for t in json.loads(data).get("trials", []):
        key = (t["trial"], t.get("rank", 0))
        peak[key] = max(peak.get(key, 0), t.get("gpu_memory_mb") or 0)
for key in sorted(peak):
    print("gpu_memory_mb peak", key, peak[key])
for trial_dir in sorted(glob.glob(os.path.join(folder, "trials", "t*"))):
    log = open(os.path.join(trial_dir, "trial.log")).read().splitlines()
    print(os.path.basename(trial_dir), [l for l in log if "CUDA_VISIBLE_DEVICES" in l])
    ranks = [open(f).read().splitlines() for f in sorted(glob.glob(os.path.join(trial_dir, "weights-rank*.txt")))]
    print("  ranks agree at every step:", len(ranks) == 2 and ranks[0] == ranks[1], len(ranks[0]) if ranks else 0, "steps")
PY
