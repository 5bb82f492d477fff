#!/bin/sh
# Writes a single 100 MB line on the channel, without a newline until the very end.
head -c 104857600 /dev/zero | tr '\0' 'x' >&4
echo >&4
sleep 60
