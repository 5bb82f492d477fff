#!/bin/sh
# Measures the CUDA example's throughput with one trial on a GPU and with four sharing it: the
# figure of issue 6 is how long four trials take at once against one after another (goal: at
# most 0.4 of the serial time). Runs the binary directly, without the engine, so only the
# training and the GPU's sharing are measured: first as CUDA shares a card by default (time
# slicing), then, where NVIDIA's nvidia-cuda-mps-control is installed, through an MPS daemon of
# the script's own (what `gpu_sharing: mps` has the agent do).
#
#   sh throughput.sh BINARY [EPOCHS [OPTION...]]
#
# BINARY is cuda-mlp (e.g. build/libexec/tunedeck/cuda-mlp); EPOCHS defaults to 30; the
# options go to each trial (default: --width 256 --depth 2 --batch-size 64). Every trial uses
# --device cuda (DEVICE=cpu in the environment measures the CPU path instead), so a machine
# without a usable GPU stops here with the reason. MPS=no skips the MPS half.
set -eu
binary=${1:?usage: sh throughput.sh BINARY [EPOCHS [OPTION...]]}
epochs=${2:-30}
device=${DEVICE:-cuda}
shift
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- --width 256 --depth 2 --batch-size 64
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
mps_running=no
stop_mps() {
    if [ "$mps_running" = yes ]; then
        echo quit | nvidia-cuda-mps-control >/dev/null 2>&1 || true
        mps_running=no
    fi
}
trap 'stop_mps; rm -rf "$out"' EXIT

now() { date +%s.%N; }

# Starts COUNT trials at once (seeds 0 to COUNT-1), waits for all, and writes the wall time of
# the whole group to $out/seconds-NAME (NAME: the sharing and the count, e.g. slicing-4).
group() {
    name=$1
    count=$2
    shift 2
    start=$(now)
    pids=
    i=0
    while [ "$i" -lt "$count" ]; do
        "$binary" --device "$device" --data "$here/digits.csv" --epochs "$epochs" --seed "$i" \
            "$@" >"$out/trial-$name-$i.log" 2>&1 &
        pids="$pids $!"
        i=$((i + 1))
    done
    failed=0
    for pid in $pids; do
        wait "$pid" || failed=1
    done
    if [ "$failed" -ne 0 ]; then
        cat "$out"/trial-"$name"-*.log >&2
        exit 1
    fi
    awk -v end="$(now)" -v start="$start" 'BEGIN { printf "%.3f", end - start }' \
        >"$out/seconds-$name"
}

# The mean of samples_per_s over every epoch of the group's trials.
rate() {
    cat "$out"/trial-"$1"-*.log | sed -n 's/.*"samples_per_s":\([0-9.e+-]*\).*/\1/p' |
        awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n; else print "n/a" }'
}

# One line of the table: LABEL, then the figure for each sharing measured.
row() {
    label=$1
    shift
    printf '%-28s' "$label"
    for sharing in $sharings; do
        printf '%-34s' "$("$@" "$sharing")"
    done
    printf '\n'
}
alone() { printf '%.2f s, %s samples/s' "$(cat "$out/seconds-$1-1")" "$(rate "$1-1")"; }
together() { printf '%.2f s, %s samples/s per trial' "$(cat "$out/seconds-$1-4")" "$(rate "$1-4")"; }
ratio() {
    awk -v one="$(cat "$out/seconds-$1-1")" -v four="$(cat "$out/seconds-$1-4")" \
        'BEGIN { printf "%.2f (serial: 4 x %.2f s)", four / (4 * one), one }'
}

"$binary" --device "$device" --data "$here/digits.csv" --epochs 1 "$@" >/dev/null  # warm-up
group slicing-1 1 "$@"
group slicing-4 4 "$@"
sharings=slicing
if [ "${MPS:-yes}" != no ] && [ "$device" = cuda ] && command -v nvidia-cuda-mps-control >/dev/null; then
    mkdir -p "$out/mps/pipe" "$out/mps/log"
    export CUDA_MPS_PIPE_DIRECTORY="$out/mps/pipe" CUDA_MPS_LOG_DIRECTORY="$out/mps/log"
    if nvidia-cuda-mps-control -d; then
        mps_running=yes
        group mps-1 1 "$@"
        group mps-4 4 "$@"
        stop_mps
        sharings="slicing mps"
    else
        echo "MPS did not start: measured time slicing only" >&2
    fi
fi
echo "device:                     $(sed -n 's/.*"device":"\([^"]*\)".*/\1/p' "$out/trial-slicing-1-0.log" | head -n 1)"
echo "trial options:              --epochs $epochs $*"
printf '%-28s%-34s%-34s\n' "" "time slicing (CUDA's default)" "$([ "$sharings" = slicing ] || echo "MPS (gpu_sharing: mps)")"
row "one trial alone:" alone
row "four trials at once:" together
row "four at once / four serial:" ratio
echo "goal: four at once take at most 0.40 of the serial time"
