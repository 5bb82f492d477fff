# Shared by scripts/quickstart and scripts/test: install what is missing from Debian's packages,
# then configure and build in ./build (reused between runs). Sourced, not run.
set -euo pipefail

TUNEDECK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${TUNEDECK_BUILD_DIR:-$TUNEDECK_ROOT/build}

# Debian 12 packages: the build toolchain and libraries (README.md says why each is there).
BUILD_PACKAGES=(cmake ninja-build g++ pkg-config git python3
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev
    libyaml-cpp-dev libssh2-1-dev libsqlite3-dev nlohmann-json3-dev libeigen3-dev lld)

# What the tests use besides the build: the real-model example, the sqlite3 tool for a look at a
# database from a shell, unshare (a real full disk on a small tmpfs) and strace (fsync checks),
# OpenSSH (the cluster tests start their own sshd nodes; scp is the transfer reference) and
# iproute2 (each node in a network namespace of its own, where the tests may make them), and
# pandas and Optuna (tests/python: tunedeck.load's dataframe() and to_optuna).
# Slurm and munge: tests/cluster/test_slurm starts a one-host Slurm of its own (as root).
# PyTorch: the DDP example's gang trials (tests/integration/test_gang_trials, gloo on the CPU).
# cloudpickle and PyYAML: Ray Tune scripts and NNI configs under `tunedeck-engine run`
# (tests/acceptance/test_ray_*, test_nni_experiment). jupyter-nbconvert and ipykernel: the
# notebook test executes a real notebook (tests/python/test_notebook). qt6-translations-l10n:
# Qt's own button texts (Yes, Cancel, Apply) in German, which tst_app_views checks.
# scripts/test and scripts/sanitize install them.
TEST_PACKAGES=(python3-sklearn python3-numpy sqlite3 util-linux procps strace
    openssh-server openssh-client openssh-sftp-server iproute2 python3-pandas python3-optuna
    slurmctld slurmd slurm-client munge python3-torch python3-cloudpickle python3-yaml
    jupyter-nbconvert python3-ipykernel qt6-translations-l10n)

# Installs the packages that are not installed yet; does nothing when all are there.
ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing Debian packages: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "error: run as root to install ${missing[*]}" >&2; exit 2; }
        sudo=(sudo)
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing[@]}"
}

# Configures once (or again when CMakeLists changed) and builds the given targets (all if none).
# Optimised as in RelWithDebInfo (-O2) but without debug information: it took a quarter to a third
# of each compile (cma_es.cpp 25 s -> 18 s, ops.cpp 12 s -> 8 s), and these builds are run and
# tested, not debugged. A developer's own build (cmake without a type) keeps RelWithDebInfo.
build_tunedeck() {
    if [ ! -f "$BUILD_DIR/build.ninja" ]; then
        cmake -S "$TUNEDECK_ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
            "${CMAKE_EXTRA_ARGS[@]}"
    fi
    if [ $# -gt 0 ]; then
        cmake --build "$BUILD_DIR" --target "$@"
    else
        cmake --build "$BUILD_DIR"
    fi
}
CMAKE_EXTRA_ARGS=()
