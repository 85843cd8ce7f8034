#!/usr/bin/env bash
# Builds the .deb from a build tree and installs it into an empty root with the real dpkg, as root or not.
#   test-deb-install.sh BUILD_DIR [CPACK]
# Checks that the package's dependencies are met on this machine, that dpkg installs every file where it belongs,
# that the installed parasight-cli validates an installed preset scenario, the installed parasight renders a
# screenshot and the installed parasight-calibrate finds its modules, and that dpkg removes the package without
# leaving a file behind. Every failure names what broke.
set -euo pipefail
build=$1
cpack=${2:-cpack}
started=$SECONDS
# dpkg looks for ldconfig and start-stop-daemon before it installs anything; a user's PATH often lacks sbin.
export PATH="$PATH:/usr/sbin:/sbin"

# shellcheck source=../common/script_failures.sh
source "$(dirname "$0")/../common/script_failures.sh"

for tool in "$cpack" dpkg dpkg-deb dpkg-query; do
    command -v "$tool" >/dev/null || fail "'$tool' is not installed (make deps installs what the tests need)"
done
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake does not exist: configure the build tree first"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== cpack -G DEB"
(cd "$build" && "$cpack" -G DEB -B "$work/cpack" --config CPackConfig.cmake) >"$work/cpack.log" 2>&1 \
    || { show "$work/cpack.log"; fail "cpack could not build the .deb"; }
debs=("$work"/cpack/*.deb)
[ "${#debs[@]}" -eq 1 ] && [ -f "${debs[0]}" ] \
    || { show "$work/cpack.log"; fail "cpack did not make exactly one .deb: ${debs[*]}"; }
deb=${debs[0]}
echo "$(basename "$deb"): $(stat -c %s "$deb") bytes"

# The clean root has no libraries, so its install below ignores dependencies. They are checked here instead: each
# dependency dpkg-shlibdeps wrote must be satisfied by a package installed on this machine, where the installed
# binaries are about to run.
echo "== dependencies"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libc6 libqt6widgets6 libyaml-cpp; do
    [[ "$depends" == *"$lib"* ]] || fail "Depends does not name $lib: did dpkg-shlibdeps run? ($depends)"
done
# parasight-calibrate's PyTorch is suggested, not required: the simulator runs without it.
suggests=$(dpkg-deb -f "$deb" Suggests)
[[ "$suggests" == *python3-torch* ]] || fail "Suggests does not name python3-torch ($suggests)"
[[ "$depends" != *python3-torch* ]] || fail "Depends names python3-torch, which only parasight-calibrate needs"
# True when one dependency, "name" or "name (op version)", is satisfied by an installed package.
satisfied() {
    local name op version installed pattern='^([^ (]+) *\((<<|<=|=|>=|>>) *([^ )]+)\)$'
    if [[ "$1" =~ $pattern ]]; then
        name=${BASH_REMATCH[1]} op=${BASH_REMATCH[2]} version=${BASH_REMATCH[3]}
    else
        name=$1 op="" version=""
    fi
    name=${name%:any}
    installed=$(dpkg-query -W -f='${Status}\t${Version}\n' "$name" 2>/dev/null | grep -m1 $'^install ok installed\t') \
        || return 1
    [ -z "$op" ] || dpkg --compare-versions "${installed#*$'\t'}" "$op" "$version"
}
IFS=',' read -r -a clauses <<<"$depends"
for clause in "${clauses[@]}"; do
    met=""
    IFS='|' read -r -a alternatives <<<"$clause"
    for alternative in "${alternatives[@]}"; do
        alternative=$(echo "$alternative" | sed 's/^ *//; s/ *$//')
        if satisfied "$alternative"; then met=yes; break; fi
    done
    [ -n "$met" ] || fail "the dependency '$(echo "$clause" | sed 's/^ *//')' is not satisfied on this machine"
done

echo "== dpkg -i into an empty root"
root="$work/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
# --force-not-root: the same run works for a user; --force-script-chrootless: dpkg runs maintainer scripts (the
# package has none) without chroot, which needs root; --force-depends: only because the empty root holds none of
# the dependencies checked above; --path-include: undoes any path-exclude of this machine's dpkg.cfg.d (slim images
# drop /usr/share/doc); --log: keeps dpkg.log inside the temporary directory.
dpkg_root=(dpkg "--root=$root" "--log=$work/dpkg.log" --force-not-root --force-script-chrootless --force-unsafe-io)
"${dpkg_root[@]}" --force-depends '--path-include=/*' -i "$deb" >"$work/install.log" 2>&1 \
    || { show "$work/install.log"; fail "dpkg could not install $(basename "$deb") into an empty root"; }
status=$(dpkg-query "--admindir=$root/var/lib/dpkg" -W -f='${Status}' parasight 2>&1) || true
[ "$status" = "install ok installed" ] || { show "$work/install.log"; fail "after dpkg -i, parasight is '$status'"; }

echo "== installed files"
"${dpkg_root[@]}" -L parasight >"$work/files" 2>&1 || { show "$work/files"; fail "dpkg -L parasight failed"; }
for path in /usr/bin/parasight /usr/bin/parasight-cli \
            /usr/share/applications/io.github.parasight.ParaSight.desktop \
            /usr/share/icons/hicolor/scalable/apps/io.github.parasight.ParaSight.svg \
            /usr/share/metainfo/io.github.parasight.ParaSight.metainfo.xml \
            /usr/share/parasight/presets/scenarios/default.yaml \
            /usr/bin/parasight-calibrate /usr/share/parasight/calibrate/layer_operations.py \
            /usr/share/doc/ParaSight/examples/slurm/submit-sweep.sh; do
    grep -qxF "$path" "$work/files" || fail "dpkg -L parasight does not list $path"
    [ -f "$root$path" ] || fail "dpkg lists $path, but the empty root has no such file"
done
[ -x "$root/usr/share/doc/ParaSight/examples/slurm/submit-sweep.sh" ] ||
    fail "the installed Slurm example's submit-sweep.sh is not executable"
for program in parasight parasight-cli parasight-calibrate; do
    [ -x "$root/usr/bin/$program" ] || fail "/usr/bin/$program is installed but not executable"
done
echo "$(wc -l <"$work/files") paths, the expected ones among them"

echo "== the installed programs run"
"$root/usr/bin/parasight-cli" validate "$root/usr/share/parasight/presets/scenarios/default.yaml" \
    >"$work/validate.log" 2>&1 || { show "$work/validate.log"; fail "the installed parasight-cli validate failed"; }
cat "$work/validate.log"
# The installed parasight-calibrate finds its modules in share/parasight/calibrate (its --help needs no PyTorch).
"$root/usr/bin/parasight-calibrate" --help >"$work/calibrate-help.log" 2>&1 \
    || { show "$work/calibrate-help.log"; fail "the installed parasight-calibrate --help failed"; }
grep -q "measured-operations.csv" "$work/calibrate-help.log" \
    || { show "$work/calibrate-help.log"; fail "the installed parasight-calibrate --help does not describe its files"; }
# Its own home: the window keeps its size and docks in the user's configuration, which a test must not touch.
mkdir -m 700 "$work/home" "$work/runtime"
HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_RUNTIME_DIR="$work/runtime" QT_QPA_PLATFORM=offscreen \
    "$root/usr/bin/parasight" --screenshot "$work/shot.png" --size 800x600 >"$work/screenshot.log" 2>&1 \
    || { show "$work/screenshot.log"; fail "the installed parasight --screenshot failed"; }
[ -s "$work/shot.png" ] || fail "the installed parasight --screenshot wrote no image"
[ "$(head -c 8 "$work/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
    || fail "the installed parasight --screenshot wrote a file that is not a PNG"
echo "screenshot: $(stat -c %s "$work/shot.png") bytes"

echo "== dpkg -r"
"${dpkg_root[@]}" -r parasight >"$work/remove.log" 2>&1 \
    || { show "$work/remove.log"; fail "dpkg could not remove parasight from the root"; }
status=$(dpkg-query "--admindir=$root/var/lib/dpkg" -W -f='${Status}' parasight 2>/dev/null) || true
case "$status" in
    "" | "unknown ok not-installed" | "deinstall ok not-installed" | "deinstall ok config-files") ;;
    *) fail "after dpkg -r, parasight is '$status'" ;;
esac
left=$(cd "$root" && find . -path ./var/lib/dpkg -prune -o ! -type d -print)
[ -z "$left" ] || fail "dpkg -r left files behind: $left"
[ ! -d "$root/usr/bin" ] || [ -z "$(ls -A "$root/usr/bin")" ] || fail "dpkg -r left files in /usr/bin"

echo "ok: built, installed, ran and removed in $((SECONDS - started)) s"
