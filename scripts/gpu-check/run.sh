#!/bin/bash
# Issue 6's checks on a machine with an NVIDIA GPU, from the repository root, with the archive of
# make-bundle.sh: the example tests (CUDA against the CPU path), the example experiment as
# shipped (its log shows each card's utilisation), the same sampled every 0.25 s, four trials
# through the engine one at a time / time-sliced / through MPS, throughput.sh, and the agent's
# overhead against the real driver. Logs go to OUT (default gpu-check-out).
#
#   bash scripts/gpu-check/run.sh ARCHIVE [OUT]
set -u
root=$PWD
archive=${1:?usage: bash scripts/gpu-check/run.sh ARCHIVE [OUT]}
out=$(mkdir -p "${2:-gpu-check-out}" && cd "${2:-gpu-check-out}" && pwd)
exec > >(tee "$out/gpu-check.log") 2>&1
section() { echo; echo "=== $(date +%T) $*"; }
elapsed() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }'; }

# The tests were built with this checkout's absolute path inside; the archive is unpacked into
# build/ and a link gives the old path where it is missing.
mkdir -p build && tar -xJf "$archive" -C build || exit 1
built_in=$(cat build/source-dir.txt)
if [ "$built_in" != "$root" ] && [ ! -e "$built_in" ]; then
    mkdir -p "$(dirname "$built_in")" && ln -s "$root" "$built_in"
fi
export LD_LIBRARY_PATH=$root/build/lib
build/bin/tunedeck-worker --version >/dev/null 2>&1 || export LD_LIBRARY_PATH=$root/build/lib:$root/build/lib-cxx
ex=resources/examples/cuda-mlp
engine=build/bin/tunedeck-engine
summary() { env -u LD_LIBRARY_PATH python3 scripts/gpu-check/usage_summary.py "$@"; }
results=$(mktemp -d)

section machine
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader
build/bin/tunedeck-worker --inventory
$engine validate $ex/experiment.yaml

section "tests"
build/bin/test_mlp_model 2>&1 | grep -E "^(PASS|FAIL|SKIP|Totals)"
build/bin/test_cuda_mlp_example 2>&1 | grep -E "^(PASS|FAIL|SKIP|Totals)|Loc"

section "tunedeck-engine run $ex/experiment.yaml"
start=$(date +%s.%N)
$engine run $ex/experiment.yaml --results "$results" --events "$out/events-example.jsonl" \
    >"$out/engine-example.log" 2>&1
echo "exit $? after $(elapsed "$start") s"
cat "$out/engine-example.log"
summary "$results/cuda-mlp"

section "the same, sampled every 0.25 s"
sed 's/^seed: 6$/seed: 6\ngpu_sample_s: 0.25/; s/^name: cuda-mlp$/name: cuda-mlp-sampled/' \
    $ex/experiment.yaml >"$results/sampled.yaml"
$engine run "$results/sampled.yaml" --as $ex/experiment.yaml --results "$results" \
    >"$out/engine-sampled.log" 2>&1
echo "exit $?"
summary "$results/cuda-mlp-sampled"

section "four trials x 300 iterations through the engine: one at a time, time-sliced, MPS"
four='s/^num_samples: 16$/num_samples: 4/; s/^scheduler: .*/scheduler: {type: fifo}/; s/^  training_iteration: 30$/  training_iteration: 300/'
sed "$four; s/^name: cuda-mlp\$/name: four-mps/" $ex/experiment.yaml >"$results/four-mps.yaml"
sed "$four; s/^name: cuda-mlp\$/name: four-slicing/; s/^gpu_sharing: mps\$/gpu_sharing: time_slicing/" \
    $ex/experiment.yaml >"$results/four-slicing.yaml"
sed "$four; s/^name: cuda-mlp\$/name: four-serial/; s/^gpu_sharing: mps\$/gpu_sharing: time_slicing\nmax_concurrent_trials: 1/" \
    $ex/experiment.yaml >"$results/four-serial.yaml"
for round in 1 2; do
    for variant in four-serial four-slicing four-mps; do
        rm -rf "${results:?}/$variant"
        start=$(date +%s.%N)
        $engine run "$results/$variant.yaml" --as $ex/experiment.yaml --results "$results" --quiet \
            >/dev/null 2>&1
        echo "round $round $variant: exit $? after $(elapsed "$start") s"
    done
done

section "throughput.sh"
sh $ex/throughput.sh build/libexec/tunedeck/cuda-mlp 1000
sh $ex/throughput.sh build/libexec/tunedeck/cuda-mlp 300 --width 1024 --depth 3 --batch-size 256

section "the agent's overhead against this machine's driver"
build/bin/bench_agent_monitor --system-nvml --seconds 30
rm -rf "$results"
section done
