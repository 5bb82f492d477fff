#!/bin/sh
# A hung trial that ignores SIGTERM (and so do its children): only SIGKILL ends it.
trap '' TERM
echo '{"type":"log","message":"ready"}' >&4
while :; do sleep 0.2; done
