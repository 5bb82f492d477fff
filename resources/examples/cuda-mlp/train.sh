#!/bin/sh
# Starts the example's compiled trainable with the data set beside this script, passing its own
# arguments on. The binary is looked for, in this order (README.md says why):
#   1. $TUNEDECK_CUDA_MLP, a path to the binary;
#   2. libexec/tunedeck/ of the Tunedeck that runs this trial, found from the SDK folder the
#      engine puts first on PYTHONPATH (<prefix>/share/tunedeck/sdk/python), in a build tree
#      as in an install;
#   3. libexec/tunedeck/ of the installed tree this script sits in
#      (<prefix>/share/tunedeck/examples/cuda-mlp);
#   4. PATH.
# In each place the CUDA build (cuda-mlp) is preferred to the CPU-only one (cuda-mlp-cpu).
here=$(cd "$(dirname "$0")" && pwd)

pick() {
    for name in cuda-mlp cuda-mlp-cpu; do
        if [ -f "$1/$name" ] && [ -x "$1/$name" ]; then
            echo "$1/$name"
            return 0
        fi
    done
    return 1
}

binary=${TUNEDECK_CUDA_MLP:-}
if [ -z "$binary" ]; then
    sdk=${PYTHONPATH%%:*}
    case $sdk in
    */share/tunedeck/sdk/python) binary=$(pick "${sdk%/share/tunedeck/sdk/python}/libexec/tunedeck") ;;
    esac
fi
if [ -z "$binary" ]; then
    binary=$(pick "$here/../../../../libexec/tunedeck")
fi
if [ -z "$binary" ]; then
    binary=$(command -v cuda-mlp || command -v cuda-mlp-cpu)
fi
if [ -z "$binary" ]; then
    echo "train.sh: the cuda-mlp example is not built: build Tunedeck (see README.md beside" \
        "this script), or set TUNEDECK_CUDA_MLP to the binary" >&2
    exit 127
fi
exec "$binary" --data "$here/digits.csv" "$@"
