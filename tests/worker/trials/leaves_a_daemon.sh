#!/bin/sh
# Leaves the agent's reach the ways a trial's daemon does: one in a session of its own (setsid,
# out of the trial's process group) that ignores SIGTERM, and one double-forked (its parent
# exits at once). Tells their pids, waits `$1` seconds, and finishes.
setsid sh -c 'trap "" TERM; exec sleep 300' > /dev/null 2>&1 < /dev/null &
daemon=$!
( sleep 300 > /dev/null 2>&1 < /dev/null & echo $! > orphan.pid )
echo "{\"type\":\"log\",\"message\":\"$daemon $(cat orphan.pid)\"}" >&4
sleep "${1:-0}"
printf '{"type":"done"}' >&4
