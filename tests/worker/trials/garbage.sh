#!/bin/sh
# Writes one valid message, then a line that is not JSON, then waits to be killed.
echo '{"type":"log","message":"about to misbehave"}' >&4
echo 'epoch 1: loss=0.25 (this is not JSON)' >&4
sleep 60
