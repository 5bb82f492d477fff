#!/bin/sh
# Packs what the GPU checks need (the engine, the agent, the CUDA example, its tests, the SDK and
# every shared library they load but the C library) from a build folder into one archive, for a
# GPU machine that lacks the project's Debian packages (Qt, yaml-cpp, libssh2, SQLite): its
# glibc must be at least Debian 12's (2.36).
#
#   sh scripts/gpu-check/make-bundle.sh [BUILD [ARCHIVE]]   (defaults: build, gpu-bundle.tar.xz)
set -eu
build=${1:-build}
archive=${2:-gpu-bundle.tar.xz}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/libexec/tunedeck" "$stage/lib" "$stage/lib-cxx" "$stage/share"
for b in tunedeck-engine tunedeck-worker test_cuda_mlp_example test_mlp_model bench_agent_monitor; do
    strip --strip-debug -o "$stage/bin/$b" "$build/bin/$b"
done
for b in cuda-mlp cuda-mlp-cpu; do
    [ -f "$build/libexec/tunedeck/$b" ] &&
        strip --strip-debug -o "$stage/libexec/tunedeck/$b" "$build/libexec/tunedeck/$b"
done
cp -a "$build/share/tunedeck" "$stage/share/"
# The tests hold the checkout's absolute path; run.sh links it to wherever the archive lands.
pwd >"$stage/source-dir.txt"
for f in "$stage"/bin/* "$stage"/libexec/tunedeck/*; do
    ldd "$f" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
    case $(basename "$lib") in
    libc.so* | libm.so* | libresolv* | libpthread* | libdl.so* | librt.so* | ld-linux*) ;;
    libstdc++* | libgcc_s*) cp -L "$lib" "$stage/lib-cxx/" ;;  # only if the machine's are older
    *) cp -L "$lib" "$stage/lib/" ;;
    esac
done
tar -C "$stage" -cJf "$archive" .
echo "$archive: $(du -h "$archive" | cut -f1)"
