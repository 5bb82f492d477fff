#!/bin/sh
# Measures the CUDA example's throughput with one trial on a GPU and with four sharing it: the
# figure of issue 6 is how long four trials take at once against one after another (goal: at
# most 0.4 of the serial time). Runs the binary directly, without the engine, so only the
# training and the GPU's sharing are measured.
#
#   sh throughput.sh BINARY [EPOCHS [OPTION...]]
#
# BINARY is cuda-mlp (e.g. build/libexec/tunedeck/cuda-mlp); EPOCHS defaults to 30; the
# options go to each trial (default: --width 256 --depth 2 --batch-size 64). Every trial uses
# --device cuda (DEVICE=cpu in the environment measures the CPU path instead), so a machine
# without a usable GPU stops here with the reason.
set -eu
binary=${1:?usage: sh throughput.sh BINARY [EPOCHS [OPTION...]]}
epochs=${2:-30}
device=${DEVICE:-cuda}
shift
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- --width 256 --depth 2 --batch-size 64
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

now() { date +%s.%N; }

# Starts COUNT trials at once (seeds 0 to COUNT-1), waits for all, and writes the wall time of
# the whole group to $out/seconds-COUNT.
group() {
    count=$1
    shift
    start=$(now)
    pids=
    i=0
    while [ "$i" -lt "$count" ]; do
        "$binary" --device "$device" --data "$here/digits.csv" --epochs "$epochs" --seed "$i" \
            "$@" >"$out/trial-$count-$i.log" 2>&1 &
        pids="$pids $!"
        i=$((i + 1))
    done
    failed=0
    for pid in $pids; do
        wait "$pid" || failed=1
    done
    if [ "$failed" -ne 0 ]; then
        cat "$out"/trial-"$count"-*.log >&2
        exit 1
    fi
    awk -v end="$(now)" -v start="$start" 'BEGIN { printf "%.3f", end - start }' \
        >"$out/seconds-$count"
}

# The mean of samples_per_s over every epoch of the group's trials.
rate() {
    cat "$out"/trial-"$1"-*.log | sed -n 's/.*"samples_per_s":\([0-9.e+-]*\).*/\1/p' |
        awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n; else print "n/a" }'
}

"$binary" --device "$device" --data "$here/digits.csv" --epochs 1 "$@" >/dev/null  # warm-up
group 1 "$@"
group 4 "$@"
one=$(cat "$out/seconds-1")
four=$(cat "$out/seconds-4")
echo "device:                      $(sed -n 's/.*"device":"\([^"]*\)".*/\1/p' "$out/trial-1-0.log" | head -n 1)"
echo "trial options:               --epochs $epochs $*"
printf 'one trial alone:             %.2f s, %s samples/s\n' "$one" "$(rate 1)"
printf 'four trials at once:         %.2f s, %s samples/s per trial\n' "$four" "$(rate 4)"
awk -v one="$one" -v four="$four" 'BEGIN {
    printf "four at once / four serial:  %.2f (four one after another take 4 x %.2f s; goal: at most 0.40)\n", four / (4 * one), one
}'
