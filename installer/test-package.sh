#!/usr/bin/env bash
# The package check of CI (issue 7): builds the packages, installs them with apt-get (so their
# Depends must resolve), runs the installed programs, lints the packages, the units, the desktop
# entry and the AppStream metainfo, purges the packages and checks that nothing of them is left.
# Needs root: it installs and purges tunedeck and tunedeck-engine on this machine (and purges
# them first if an earlier run left them). Exits non-zero, with a "FAIL:" line, on any failure.
# Reuses the build of scripts/test (./build, or TUNEDECK_BUILD_DIR).
source "$(dirname "$0")/../scripts/lib.sh"
# What the checks use besides the build (README.md, "Dependencies").
CHECK_TOOLS=(dpkg-dev file help2man lintian desktop-file-utils appstream systemd shared-mime-info
    libglib2.0-bin)
PACKAGES=(tunedeck tunedeck-engine)

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
step() { echo "== $*"; }

[ "$(id -u)" -eq 0 ] || fail "run as root: the check installs and purges the packages"
ensure_packages "${BUILD_PACKAGES[@]}" "${CHECK_TOOLS[@]}"

installed_tunedeck() {
    { dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null || true; } |
        awk '$NF != "not-installed" {print $1}'
}
purge_tunedeck() {
    local present
    present=$(installed_tunedeck)
    [ -z "$present" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $present >/dev/null
}

work=$(mktemp -d)
deps_added=""
cleanup() {
    local status=$?
    # Leave the machine as it was, whatever happened: the packages and what they pulled in go.
    purge_tunedeck || true
    if [ -n "$deps_added" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $deps_added >/dev/null || true
    fi
    rm -rf "$work"
    exit $status
}
trap cleanup EXIT

# --- Build the packages.
step "building the packages in $BUILD_DIR"
if [ -f "$BUILD_DIR/CMakeCache.txt" ] && grep -q '^HELP2MAN_EXECUTABLE:.*NOTFOUND' "$BUILD_DIR/CMakeCache.txt"; then
    cmake -S "$TUNEDECK_ROOT" -B "$BUILD_DIR" >/dev/null
fi
build_tunedeck tunedeck_package_files
rm -rf "$BUILD_DIR/packages"
(cd "$BUILD_DIR" && cpack >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; }
debs=("$BUILD_DIR"/packages/tunedeck*.deb)
[ -f "$BUILD_DIR/packages/tunedeck-engine_"*.deb ] || fail "no tunedeck-engine .deb in $BUILD_DIR/packages"
ls "$BUILD_DIR"/packages/tunedeck-*.tar.gz >/dev/null 2>&1 || fail "no .tar.gz in $BUILD_DIR/packages"
for file in "${debs[@]}" "$BUILD_DIR"/packages/*.tar.gz; do
    echo "   $(basename "$file")  $(numfmt --to=iec-i --suffix=B "$(stat -c %s "$file")")"
done

# The Depends must come from the shared libraries, so the engine's libraries must be there.
engine_depends=$(dpkg-deb -f "$BUILD_DIR"/packages/tunedeck-engine_*.deb Depends)
for library in libqt6core6 libyaml-cpp libssh2 libsqlite3; do
    grep -q "$library" <<<"$engine_depends" ||
        fail "tunedeck-engine does not depend on $library: Depends: $engine_depends"
done
if grep -q -i 'widgets' <<<"$engine_depends"; then
    fail "tunedeck-engine depends on Qt Widgets: Depends: $engine_depends"
fi

# The tarball is relocatable: its engine finds its worker wherever it is unpacked.
step "tarball"
mkdir -p "$work/tarball"
tar -xzf "$BUILD_DIR"/packages/tunedeck-*.tar.gz -C "$work/tarball"
unpacked=$(echo "$work"/tarball/*)
for path in bin/tunedeck-engine bin/tunedeck-worker share/tunedeck/sdk/python/tunedeck.py \
    share/tunedeck/examples/quickstart/experiment.yaml; do
    [ -e "$unpacked/$path" ] || fail "the tarball has no $path"
done
# A short quickstart from the unpacked folder: its engine must find its own worker and SDK.
cp -r "$unpacked/share/tunedeck/examples/quickstart" "$work/tarball-quickstart"
sed -i 's/^num_samples: .*/num_samples: 2/; s/^  training_iteration: .*/  training_iteration: 2/' \
    "$work/tarball-quickstart/experiment.yaml"
env -u TUNEDECK_WORKER -u TUNEDECK_PYTHON_SDK "$unpacked/bin/tunedeck-engine" run \
    "$work/tarball-quickstart/experiment.yaml" --results "$work/tarball-results" --quiet \
    >"$work/tarball-run.log" 2>&1 || { cat "$work/tarball-run.log"; fail "the tarball's engine cannot run the quickstart"; }

# --- lintian: errors fail, warnings are listed.
step "lintian"
lintian --tag-display-limit 0 "${debs[@]}" >"$work/lintian.txt" 2>&1 || true
cat "$work/lintian.txt"
if grep -q '^E: ' "$work/lintian.txt"; then
    fail "lintian found errors (above)"
fi

# --- Install, with a record of the machine before, to compare after the purge.
purge_tunedeck
snapshot() {
    # Every path where the packages or their maintainer scripts write, one per line (not all of
    # /var/lib: services of the machine write there all the time).
    { find /usr /etc /opt /var/lib/systemd /var/lib/tunedeck -xdev -print 2>/dev/null || true; } |
        LC_ALL=C sort
}
dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$work/packages-before"
snapshot >"$work/files-before"

step "apt-get install ${debs[*]##*/}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${debs[@]}" >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log"; fail "apt-get install of the packages"; }
dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$work/packages-after"
deps_added=$(comm -13 "$work/packages-before" "$work/packages-after" | grep -v -x -e tunedeck -e tunedeck-engine || true)
[ -z "$deps_added" ] || echo "   pulled in: $(echo $deps_added)"

# --- The installed programs.
step "installed programs"
expected_version=$(sed -n 's/^#define TUNEDECK_VERSION "\(.*\)"/\1/p' "$BUILD_DIR/generated/tunedeck/version.h")
expected_commit=$(sed -n 's/^#define TUNEDECK_GIT_COMMIT "\(.*\)"/\1/p' "$BUILD_DIR/generated/tunedeck/version.h")
check_version() {
    local printed
    printed=$(env QT_QPA_PLATFORM=offscreen "$@" --version 2>/dev/null) || fail "$* --version failed"
    echo "   $printed"
    grep -q -F "$expected_version" <<<"$printed" || fail "$* --version lacks the version $expected_version"
    grep -q -F "$expected_commit" <<<"$printed" || fail "$* --version lacks the commit $expected_commit"
}
check_version /usr/bin/tunedeck-engine
check_version /usr/bin/tunedeck-worker
check_version /usr/bin/tunedeck
for page in tunedeck tunedeck-engine tunedeck-worker; do
    [ -s "/usr/share/man/man1/$page.1.gz" ] || fail "no man page for $page"
done

# The quickstart as a user runs it: copied out of the read-only examples, results in a folder of
# their own, HOME empty so that any write outside the results root shows, and Python allowed to
# write bytecode (as root it lands beside the installed SDK, and the purge must remove it).
unset PYTHONDONTWRITEBYTECODE
mkdir -p "$work/home" "$work/results"
cp -r /usr/share/tunedeck/examples/quickstart "$work/quickstart"
HOME="$work/home" tunedeck-engine validate "$work/quickstart/experiment.yaml" ||
    fail "the installed engine rejects the installed quickstart"
HOME="$work/home" tunedeck-engine run "$work/quickstart/experiment.yaml" --results "$work/results" \
    --quiet >"$work/run.log" 2>&1 || { cat "$work/run.log"; fail "the installed engine's run of the quickstart"; }
tail -n 3 "$work/run.log" | sed 's/^/   /'
[ -f "$work/results/quickstart/experiment.sqlite" ] || fail "the run left no experiment.sqlite"
HOME="$work/home" tunedeck-engine best "$work/results/quickstart" >/dev/null ||
    fail "tunedeck-engine best on the run's results"
# The system's python3 imports the package (its path file) and reads the same best trial.
best_by_python=$(cd / && HOME="$work/home" /usr/bin/python3 -c "import tunedeck; \
print(tunedeck.load('$work/results/quickstart').best_trial()['trial_id'])") ||
    fail "the system's python3 cannot import tunedeck or load the run"
HOME="$work/home" tunedeck-engine best "$work/results/quickstart" 2>&1 >/dev/null |
    grep -q "best trial $best_by_python " || fail "tunedeck.load's best trial is not the engine's"
if [ -n "$(ls -A "$work/home")" ]; then
    fail "the engine wrote outside its results root: $(cd "$work/home" && find . -mindepth 1 | head)"
fi

# --- Desktop integration and units, as installed.
step "desktop entry, metainfo, file types"
desktop-file-validate /usr/share/applications/org.tunedeck.Tunedeck.desktop ||
    fail "desktop-file-validate"
appstreamcli validate --no-net /usr/share/metainfo/org.tunedeck.Tunedeck.metainfo.xml ||
    fail "appstreamcli validate"
newest_release=$(grep -o -m1 '<release version="[^"]*"' /usr/share/metainfo/org.tunedeck.Tunedeck.metainfo.xml | cut -d'"' -f2)
[ "$newest_release" = "$expected_version" ] ||
    fail "the metainfo's newest release is $newest_release, the project's version $expected_version: add a <release>"
grep -q '^50:application/x-tunedeck-history:experiment.sqlite' /usr/share/mime/globs2 ||
    fail "experiment.sqlite is not in the MIME database (shared-mime-info trigger)"
grep -q '^50:application/x-tunedeck-experiment:\*.tunedeck.yaml' /usr/share/mime/globs2 ||
    fail "*.tunedeck.yaml is not in the MIME database"
grep -q '^application/x-tunedeck-history=.*org.tunedeck.Tunedeck.desktop' /usr/share/applications/mimeinfo.cache ||
    fail "experiment.sqlite does not open in Tunedeck (mimeinfo.cache)"
# What a file manager does on a double-click: the file's type by GLib, then that type's default app.
cp "$work/results/quickstart/experiment.sqlite" "$work/experiment.sqlite"
cp "$work/quickstart/experiment.yaml" "$work/lab.tunedeck.yaml"
for file in "$work/experiment.sqlite" "$work/quickstart/experiment.yaml" "$work/lab.tunedeck.yaml"; do
    type=$(gio info -a standard::content-type "$file" | sed -n 's/.*standard::content-type: //p')
    case "$type" in application/x-tunedeck-*) ;; *) fail "$(basename "$file") is $type, not a Tunedeck type" ;; esac
    handlers=$(gio mime "$type")
    grep -q 'Default application.*org.tunedeck.Tunedeck.desktop' <<<"$handlers" ||
        fail "a double-click on $(basename "$file") ($type) would not open Tunedeck"
done

step "systemd units"
getent passwd tunedeck >/dev/null || fail "no system user tunedeck after the install"
# verify only warns about an unknown key or a bad value: any output fails the check.
verify_unit() {
    local output
    output=$(XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$work} SYSTEMD_LOG_LEVEL=warning \
        systemd-analyze "$@" 2>&1) || fail "systemd-analyze $*: $output"
    [ -z "$output" ] || fail "systemd-analyze $*: $output"
}
verify_unit verify /usr/lib/systemd/system/tunedeck-engine.service
verify_unit --user verify /usr/lib/systemd/user/tunedeck-engine.service

# --- Purge, then nothing of the packages may be left: no new path anywhere (the users' results
# --- were in $work), no system user, no entry in the MIME and desktop caches.
step "apt-get purge"
purge_tunedeck
if [ -n "$deps_added" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $deps_added >/dev/null
    deps_added=""
fi
[ -z "$(installed_tunedeck)" ] || fail "still installed after the purge: $(installed_tunedeck)"
snapshot >"$work/files-after"
# Backups that useradd/userdel keep of the account files are the system's, not the package's.
left=$(comm -13 "$work/files-before" "$work/files-after" |
    grep -v -x -E '/etc/(passwd|group|shadow|gshadow|subuid|subgid)-|/etc/\.pwd\.lock' || true)
[ -z "$left" ] || fail "left behind after the purge:
$left"
! ls /var/lib/dpkg/info/tunedeck* >/dev/null 2>&1 || fail "dpkg still has files of the packages"
! getent passwd tunedeck >/dev/null || fail "the system user tunedeck is left after the purge"
! getent group tunedeck >/dev/null || fail "the group tunedeck is left after the purge"
! grep -l -i tunedeck /usr/share/mime/globs2 /usr/share/applications/mimeinfo.cache 2>/dev/null ||
    fail "the MIME or desktop cache still names Tunedeck after the purge"

echo "OK: packages built, installed, run, linted and purged cleanly"
