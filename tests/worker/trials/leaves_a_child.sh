#!/bin/sh
# Starts a background helper in its process group, tells its pid, and finishes.
sleep 300 &
echo "{\"type\":\"log\",\"message\":\"$!\"}" >&4
printf '{"type":"done"}' >&4
