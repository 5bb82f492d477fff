#!/bin/sh
# Deliberately not executable.
exit 0
