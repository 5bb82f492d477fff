#!/bin/sh
# A daemon as a launcher script makes it: a session of its own (setsid), a cleared environment
# (env -i, so nothing marks it as the trial's), SIGTERM ignored. Tells its pid, waits `$1`
# seconds, and finishes.
setsid env -i /bin/sh -c 'trap "" TERM; exec sleep 300' > /dev/null 2>&1 < /dev/null &
echo "{\"type\":\"log\",\"message\":\"$!\"}" >&4
sleep "${1:-0}"
printf '{"type":"done"}' >&4
