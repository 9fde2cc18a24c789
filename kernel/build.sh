#!/bin/bash
# Build (or reuse) the slicebench guest kernel: Debian's linux-source + our
# patches + configs/guest.config on top of allnoconfig. Also builds the
# kernel's rseq slice_test selftest, static, from the same tree.
#
# Progress goes to stderr; the last stdout line is the path of bzImage.
set -euo pipefail

KDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KVER=${KVER:-7.3}
KSRC=${KSRC:-}
CACHE=${SLICEBENCH_CACHE:-/var/cache/slicebench}
JOBS=${JOBS:-$(($(nproc) + 1))}
SUITE=${SLICEBENCH_SUITE:-trixie-backports}
MODE=build
REFRESH=0
TARGET=guest
BASE_CONFIG=running
LOCALMOD=""
PRINT_ONLY=0
VARIANT=default

usage() {
	cat <<EOF
usage: kernel/build.sh [options]

Builds the patched guest kernel and prints the path of its bzImage on the
last line of stdout. Results are cached in \$SLICEBENCH_CACHE/kernel/<key>/
(default /var/cache/slicebench), keyed by the source version and a hash
of the build inputs (patches, config fragment, this script's recipe).

  --kver V        Debian linux-source-V to use (default: \$KVER or 7.3)
  --ksrc DIR      use an existing kernel tree instead (also: KSRC=DIR);
                  it is copied, never modified
  --jobs N        parallel make jobs (default: nproc+1)
  --variant NAME  default (the guest kernel as it always was), or one of
                  kernel/variants/: none (preempt=none and voluntary
                  restored beside full and lazy), rt (PREEMPT_RT); each
                  has its own cache key and is built only when asked for
  --refresh       ask the registry for a newer source package even if
                  one is cached
  --print-path    print the cached artefact (bzImage; with --debian-image
                  its vmlinuz), fail if not built; never builds
  --print-dir     print the cache directory of this build, fail if not built
  --debian-image  fetch Debian's own linux-image for V (the unpatched
                  baseline) and print the path of its vmlinuz
  --prepare       fetch, unpack, patch and configure, then stop before
                  compiling (checks the cold path in a minute); prints the
                  build directory
  --bare-metal    build a kernel for a real machine instead: a full base
                  configuration plus configs/bare-metal.config, packaged
                  with make bindeb-pkg; the last stdout line is the
                  linux-image .deb (see kernel/README.md to install it)
  --base-config C with --bare-metal: running (default: /proc/config.gz,
                  else /boot/config-\$(uname -r)), debian (Debian's own
                  linux-image config for V, flavour
                  \$SLICEBENCH_DEBIAN_FLAVOR, default cloud-amd64), or a file
  --localmodconfig[=F]
                  with --bare-metal: drop every module not loaded now
                  (lsmod; or F, an lsmod listing saved on the target
                  machine); a full distribution config takes hours on 2 CPUs
  -h, --help      this text

Exit: 0 ok, 1 build failure, 2 usage or missing build dependencies.
EOF
}

log() { printf 'build.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# a usage error is one line and where to read more, not the whole help
usage_err() { log "$*"; echo "try 'kernel/build.sh --help'" >&2; exit 2; }
# value OPTION ARG...: the option's value is there and not empty
value() { [ -n "${2:-}" ] || usage_err "$1 needs a value"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--kver) value "$@"; KVER=$2; shift 2 ;;
	--kver=*) KVER=${1#*=}; shift ;;
	--ksrc) value "$@"; KSRC=$2; shift 2 ;;
	--ksrc=*) KSRC=${1#*=}; shift ;;
	--jobs)
		value "$@"
		# make -j takes a count: anything else failed after the unpack
		[[ "$2" =~ ^[1-9][0-9]{0,3}$ ]] ||
			usage_err "--jobs: '$2' is not a whole number from 1 (decimal digits, no leading zero, at most 4)"
		JOBS=$2; shift 2 ;;
	--refresh) REFRESH=1; shift ;;
	--variant) value "$@"; VARIANT=$2; shift 2 ;;
	--variant=*) VARIANT=${1#*=}; shift ;;
	--print-path) PRINT_ONLY=1; shift ;;
	--print-dir) MODE=print-dir; shift ;;
	--debian-image) MODE=debian-image; shift ;;
	--prepare) MODE=prepare; shift ;;
	--bare-metal) TARGET=bare-metal; shift ;;
	--base-config) value "$@"; BASE_CONFIG=$2; shift 2 ;;
	--base-config=*) BASE_CONFIG=${1#*=}; shift ;;
	--localmodconfig) LOCALMOD=lsmod; shift ;;
	--localmodconfig=*) LOCALMOD=${1#*=}; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage_err "unknown option: $1" ;;
	esac
done
# --print-path asks for what the other options name, never builds it:
# with --debian-image, Debian's vmlinuz; otherwise the patched kernel.
if [ "$PRINT_ONLY" = 1 ] && [ "$MODE" != debian-image ]; then
	MODE=print-path
fi

# A variant is a directory of kernel/variants/: its *.patch files apply
# after patches/, its *.config lines override the target's fragment.
VARDIR=""
if [ "$VARIANT" != default ]; then
	VARDIR="$KDIR/variants/$VARIANT"
	if [[ ! "$VARIANT" =~ ^[a-z0-9][a-z0-9-]*$ ]] || [ ! -d "$VARDIR" ]; then
		log "--variant: no such variant '$VARIANT' (default$(cd "$KDIR/variants" && printf ', %s' *))"
		exit 2
	fi
	if [ "$MODE" = debian-image ]; then
		log "--variant $VARIANT: --debian-image is Debian's own kernel, it has no variants"
		exit 2
	fi
fi

# ---------------------------------------------------------------- locking
# Several users share one cache: make check, ./run.sh --vm in another
# terminal, every task of a Slurm array on a fresh node.  Each artefact
# has a lock file; whoever holds it builds, the others wait and then
# find the artefact done.  flock(1) locks die with their holder (the
# kernel drops them when the last descriptor closes), so a killed
# builder never blocks the next one; what it left without its .done is
# started over.  A compile inherits the lock: a make left running by a
# killed build.sh still holds it until it ends.
#
# lock_wait FILE: open FILE on a new descriptor of this shell and hold
# an exclusive lock on it (until this shell, or subshell, exits).
lock_wait() {
	local f=$1 fd
	mkdir -p "$(dirname "$f")"
	exec {fd}>"$f"
	if ! flock -n "$fd"; then
		log "waiting for another user of the cache (lock $f)"
		flock "$fd"
	fi
}

# ---------------------------------------------------------------- private apt
APTDIR="$CACHE/apt"
DEBDIR="$CACHE/deb"

mirror_uri() {
	local uri=""
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$uri" ] && [ -r /etc/apt/sources.list ]; then
		uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
			/etc/apt/sources.list)
	fi
	[ -n "$uri" ] || die "no Debian mirror URI found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
	printf '%s\n' "$uri"
}

# Once per invocation of this script: fetch_deb runs in command
# substitutions (subshells), so a shell variable would not remember the
# update; $$ is this script's PID in every subshell.
apt_private() {
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial"
	local src="$APTDIR/sources.list" stamp="$APTDIR/.updated-by-$$" APT_UPDATED=0
	[ -f "$stamp" ] && APT_UPDATED=1
	if [ "$APT_UPDATED" = 0 ]; then
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
			"$(mirror_uri)" "$SUITE" >"$src"
	fi
	local opts=(-o "Dir::Etc::SourceList=$src" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$APTDIR/lists" -o "Dir::Cache::Archives=$APTDIR/archives"
		-o APT::Sandbox::User=root)
	if [ "$APT_UPDATED" = 0 ]; then
		log "updating private package lists ($SUITE)"
		apt-get "${opts[@]}" -qq update >&2 || die "private apt-get update failed"
		# other users' stamps stay while they run; a dead one's goes
		local s
		for s in "$APTDIR"/.updated-by-*; do
			[ -e "$s" ] || continue
			kill -0 "${s##*-}" 2>/dev/null || rm -f "$s"
		done
		: >"$stamp"
	fi
	apt-get "${opts[@]}" "$@"
}

# The newest cached .deb matching a glob, or nothing.  An empty cache is
# the normal case on a new machine: no `ls` on a glob that may match
# nothing (under `set -e -o pipefail` its failure would end the script
# inside the caller's assignment, silently).
cached_deb() {
	local pattern=$1 f newest=""
	local -a all
	shopt -s nullglob
	# shellcheck disable=SC2206  # the pattern is a glob on purpose
	all=("$DEBDIR"/$pattern)
	shopt -u nullglob
	for f in "${all[@]}"; do
		[ -f "$f" ] || continue
		if [ -z "$newest" ] || [ "$(printf '%s\n%s\n' "$newest" "$f" | sort -V | tail -n 1)" = "$f" ]; then
			newest=$f
		fi
	done
	[ -z "$newest" ] || printf '%s\n' "$newest"
}

# Downloads land in a private directory and are moved into $DEBDIR only
# once apt-get has checked them, so a download killed half-way leaves no
# .deb that a later run would take for a whole one.  One user at a time
# updates the private lists and downloads (apt-get locks its lists
# directory and fails at once, "Could not get lock", rather than wait);
# the next one finds the package there.  Runs in a subshell: the lock
# ends with it.
fetch_deb() {
	(
		lock_wait "$CACHE/.lock-apt"
		fetch_deb_locked "$1"
	)
}
fetch_deb_locked() {
	local pkg=$1 deb part f
	mkdir -p "$DEBDIR"
	deb=$(cached_deb "${pkg}_*.deb")
	if [ -n "$deb" ] && [ "$REFRESH" = 0 ]; then
		printf '%s\n' "$deb"
		return
	fi
	# under the lock, any .partial-* is a dead user's
	rm -rf "$DEBDIR"/.partial-*
	part=$(mktemp -d "$DEBDIR/.partial-XXXXXX")
	log "downloading $pkg"
	(cd "$part" && apt_private -q download "$pkg" >&2) || { rm -rf "$part"; die "apt-get download $pkg failed"; }
	for f in "$part"/*.deb; do
		if [ -f "$f" ]; then mv -f "$f" "$DEBDIR/"; fi
	done
	rm -rf "$part"
	deb=$(cached_deb "${pkg}_*.deb")
	[ -n "$deb" ] || die "download of $pkg produced no .deb"
	printf '%s\n' "$deb"
}

deb_version() {
	dpkg-deb -f "$1" Version
}

# --------------------------------------------------------- Debian linux-image
if [ "$MODE" = debian-image ]; then
	# Debian splits an image into linux-image-REL (meta), linux-binary-REL
	# (vmlinuz) and linux-base-REL (config). The cloud flavor has every
	# driver the VM needs (8250, virtio, devtmpfs) built in: no modules.
	flavor=${SLICEBENCH_DEBIAN_FLAVOR:-cloud-amd64}
	deb=$(cached_deb "linux-binary-${KVER}.*-${flavor}_*.deb")
	if [ "$PRINT_ONLY" = 1 ] && [ -z "$deb" ]; then
		die "Debian's linux-image for $KVER not downloaded yet; run kernel/build.sh --debian-image"
	fi
	if [ -z "$deb" ] || [ "$REFRESH" = 1 ]; then
		meta=$(fetch_deb "linux-image-$flavor")
		rel=$(dpkg-deb -f "$meta" Depends | tr ',' '\n' |
			sed -n "s/^ *linux-image-\([0-9][^ ]*-$flavor\) .*/\1/p;T;q")
		case "$rel" in
		"$KVER".*) ;;
		*) die "linux-image-$flavor in $SUITE is for '$rel', not $KVER.x" ;;
		esac
		deb=$(fetch_deb "linux-binary-$rel")
		fetch_deb "linux-base-$rel" >/dev/null
	fi
	rel=$(basename "$deb" | sed 's/^linux-binary-\([^_]*\)_.*/\1/')
	out="$CACHE/debian-image/$rel-$(deb_version "$deb" | tr -c 'A-Za-z0-9.\n-' '_')"
	if [ ! -f "$out/.done" ] && [ "$PRINT_ONLY" = 1 ]; then
		die "Debian's linux-image $rel not unpacked yet; run kernel/build.sh --debian-image"
	fi
	[ -f "$out/.done" ] || lock_wait "$out.lock"
	if [ ! -f "$out/.done" ]; then
		# unpacked beside, renamed into place whole
		log "unpacking linux-binary-$rel"
		rm -rf "$out" "$out".part-*
		part=$(mktemp -d "$out.part-XXXXXX")
		dpkg-deb -x "$deb" "$part/x"
		base=$(cached_deb "linux-base-${rel}_*.deb")
		[ -n "$base" ] && dpkg-deb -x "$base" "$part/x"
		vmlinuz=$(find "$part/x" -name 'vmlinuz*' -type f -print -quit)
		[ -n "$vmlinuz" ] || die "no vmlinuz in $deb"
		mv "$vmlinuz" "$part/vmlinuz"
		cfg=$(find "$part/x" \( -name config -o -name 'config-*' \) -type f -print -quit)
		[ -n "$cfg" ] && mv "$cfg" "$part/config"
		printf '%s\n' "$rel" >"$part/kernelrelease"
		rm -rf "$part/x"
		touch "$part/.done"
		chmod 755 "$part"
		mv "$part" "$out"
	fi
	printf '%s\n' "$out/vmlinuz"
	exit 0
fi

# ------------------------------------------------------------- progress
# show_progress PID LOG: while PID runs, how far the compile is: the steps
# kbuild has logged (CC, LD, ...) against the count of the last build here
# (or, on a first build, of the build this script was measured on),
# elapsed and estimated time left.  On a terminal, one line redrawn in
# place; otherwise a plain line per 10%, so a CI log stays short.
# a kbuild step as the build log shows it ("  CC      mm/vmalloc.o")
KBUILD_STEP='^  (CC|AS|LD|AR|HOSTCC|OBJCOPY|VDSO|GEN|UPD|SYSHDR|SYSTBL|WRAP|CHK) '
UNITS_MEASURED=1529   # steps of the guest config's build, kernel 7.3.4
UNITS_FILE="$CACHE/kernel/.last-units"
if [ "$TARGET" = bare-metal ]; then
	# the count of a localmodconfig'd cloud-amd64 build of 7.3.4 with
	# bindeb-pkg; a full distribution config has several times more
	UNITS_MEASURED=4000
	UNITS_FILE="$CACHE/kernel/.last-units-bare-metal"
fi
show_progress() {
	local pid=$1 logf=$2 total n pct last=-1 t0 el left tty=0
	total=$(cat "$UNITS_FILE" 2>/dev/null || true)
	case "$total" in '' | *[!0-9]* | 0) total=$UNITS_MEASURED ;; esac
	[ -t 2 ] && tty=1
	t0=$(date +%s)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$(grep -c -E "$KBUILD_STEP" "$logf" 2>/dev/null || true)
		n=${n:-0}
		pct=$((n * 100 / total))
		[ "$pct" -le 99 ] || pct=99
		el=$(($(date +%s) - t0))
		left="?"
		[ "$n" -gt 50 ] && left="$((el * (total - n) / n / 60 + 1)) min"
		[ "$n" -lt "$total" ] || left="<1 min"
		if [ "$tty" = 1 ]; then
			printf '\rbuild.sh: compiling: %d of ~%d steps (%d%%), %dm%02ds, about %s left ' \
				"$n" "$total" "$pct" $((el / 60)) $((el % 60)) "$left" >&2
		elif [ $((pct / 10)) -gt "$last" ]; then
			last=$((pct / 10))
			log "compiling: $n of ~$total steps ($pct%), ${el}s, about $left left"
		fi
	done
	[ "$tty" = 0 ] || printf '\n' >&2
}

# ------------------------------------------------------------- source + key
# The recipe: bump it when a change to this script changes what it builds
# (the config step, the make targets, the selftest build).  Changes that do
# not (messages, progress, option parsing) keep the cache valid.
RECIPE=2
# the bare-metal target's own recipe: bumping it rebuilds only that target
BM_RECIPE=1

inputs_hash() {
	# every kernel/ build input of the target; order fixed by sort.  The
	# bare-metal fragment is no input of the guest (its key stays as it was).
	(
		cd "$KDIR"
		if [ "$TARGET" = guest ]; then
			printf 'recipe %s\n' "$RECIPE"
			find configs patches -type f \( -name '*.patch' -o -name '*.config' \) \
				! -name bare-metal.config -print0 |
				LC_ALL=C sort -z | xargs -0 sha256sum
		else
			printf 'bare-metal recipe %s\n' "$BM_RECIPE"
			find configs/bare-metal.config patches -type f \( -name '*.patch' -o -name '*.config' \) -print0 |
				LC_ALL=C sort -z | xargs -0 sha256sum
			printf 'base %s\n' "$(printf '%s\n' "$BASE_TEXT" | sha256sum)"
			printf 'lsmod %s\n' "$(printf '%s\n' "$LSMOD_TEXT" | sha256sum)"
		fi
		# the default variant adds nothing: its key is the one it always had
		if [ -n "$VARDIR" ]; then
			printf 'variant %s\n' "$VARIANT"
			find "variants/$VARIANT" -type f \( -name '*.patch' -o -name '*.config' \) -print0 |
				LC_ALL=C sort -z | xargs -0 -r sha256sum
		fi
	) | sha256sum | cut -c1-16
}

# ------------------------------------------------------------- bare-metal base
# The base configuration and the module list are read once, here: they are
# part of the key, and the build writes the very text that was hashed.
BASE_TEXT=""
LSMOD_TEXT=""
BASE_DESC=""
if [ "$TARGET" = guest ]; then
	if [ "$BASE_CONFIG" != running ] || [ -n "$LOCALMOD" ]; then
		log "--base-config and --localmodconfig need --bare-metal"
		exit 2
	fi
else
	case "$BASE_CONFIG" in
	running)
		if [ -r /proc/config.gz ]; then
			BASE_TEXT=$(zcat /proc/config.gz)
			BASE_DESC="/proc/config.gz of $(uname -r)"
		elif [ -r "/boot/config-$(uname -r)" ]; then
			BASE_TEXT=$(cat "/boot/config-$(uname -r)")
			BASE_DESC="/boot/config-$(uname -r)"
		else
			log "no configuration of the running kernel $(uname -r) (neither /proc/config.gz nor /boot/config-$(uname -r)); use --base-config debian or FILE"
			exit 2
		fi
		;;
	debian)
		# asked only for a path, fetch nothing: the config is part of the key
		pp=()
		[ "$MODE" = build ] || [ "$MODE" = prepare ] || pp=(--print-path)
		if [ "${#pp[@]}" = 1 ]; then
			img=$("$0" --debian-image "${pp[@]}" --kver "$KVER" 2>/dev/null | tail -n 1) ||
				die "kernel not built yet: its base config, Debian's linux-image for $KVER, is not downloaded yet; run kernel/build.sh --bare-metal --base-config debian"
		else
			img=$("$0" --debian-image --kver "$KVER" | tail -n 1) || die "cannot fetch Debian's linux-image for $KVER"
		fi
		[ -f "$(dirname "$img")/config" ] || die "Debian's linux-image for $KVER carries no config"
		BASE_TEXT=$(cat "$(dirname "$img")/config")
		BASE_DESC="Debian's $(cat "$(dirname "$img")/kernelrelease") config"
		;;
	*)
		if [ ! -f "$BASE_CONFIG" ] || ! grep -q '^CONFIG_' "$BASE_CONFIG"; then
			log "--base-config: not a kernel configuration: $BASE_CONFIG"
			exit 2
		fi
		BASE_TEXT=$(cat "$BASE_CONFIG")
		BASE_DESC=$BASE_CONFIG
		;;
	esac
	case "$LOCALMOD" in
	'') ;;
	lsmod)
		LSMOD_TEXT=$(lsmod 2>&1) || {
			log "lsmod failed: ${LSMOD_TEXT##*$'\n'}"
			log "(a kernel without modules has no /proc/modules: save lsmod on the target and pass --localmodconfig=FILE)"
			exit 2
		} ;;
	*)
		if [ ! -f "$LOCALMOD" ] || [ "$(head -n 1 "$LOCALMOD" | awk '{ print $1 }')" != Module ]; then
			log "--localmodconfig: not an lsmod listing (first line 'Module Size Used by'): $LOCALMOD"
			exit 2
		fi
		LSMOD_TEXT=$(cat "$LOCALMOD") ;;
	esac
fi

if [ -n "$KSRC" ]; then
	if [ ! -f "$KSRC/Makefile" ] || [ ! -f "$KSRC/kernel/rseq.c" ]; then
		log "KSRC=$KSRC is not a kernel tree"
		exit 2
	fi
	KSRC=$(cd "$KSRC" && pwd)
	srcver=$(make -s -C "$KSRC" kernelversion 2>/dev/null) || die "cannot read kernel version of $KSRC"
	srcid="ksrc:$KSRC:$srcver:$(git -C "$KSRC" rev-parse HEAD 2>/dev/null || stat -c %Y "$KSRC/Makefile")"
	keyname="ksrc-$srcver"
else
	if [ "$MODE" = build ] || [ "$MODE" = prepare ]; then
		deb=$(fetch_deb "linux-source-$KVER")
	else
		deb=$(cached_deb "linux-source-${KVER}_*.deb")
		[ -n "$deb" ] || die "linux-source-$KVER not downloaded yet; run kernel/build.sh"
	fi
	srcver=$(deb_version "$deb")
	srcid="debian:linux-source-$KVER:$srcver"
	keyname="$srcver"
fi
[ -z "$VARDIR" ] || keyname="$keyname-$VARIANT"
[ "$TARGET" = guest ] || keyname="$keyname-bare-metal"
key="$(printf '%s' "$keyname" | tr -c 'A-Za-z0-9.\n-' '_')-$(printf '%s\n%s\n' "$srcid" "$(inputs_hash)" | sha256sum | cut -c1-12)"
OUT="$CACHE/kernel/$key"

# --prepare works beside the build, never in it: it must not start a built
# kernel over.
[ "$MODE" = prepare ] && OUT="$OUT.prepare"
# what the build leaves: the guest's bzImage, or the bare-metal linux-image
# .deb (its path is in image-deb)
artifact() {
	if [ "$TARGET" = guest ]; then
		printf '%s\n' "$OUT/bzImage"
	else
		cat "$OUT/image-deb" 2>/dev/null || printf '%s\n' "$OUT/image-deb"
	fi
}
if [ "$MODE" != prepare ] && [ -f "$OUT/.done" ] && [ -f "$(artifact)" ]; then
	case "$MODE" in
	print-dir) printf '%s\n' "$OUT" ;;
	*) log "cached: $OUT"; artifact ;;
	esac
	exit 0
fi
if [ "$MODE" != build ] && [ "$MODE" != prepare ]; then
	die "kernel not built yet ($OUT); run kernel/build.sh"
fi

# ------------------------------------------------------------- build deps
# scripts/install-deps.sh holds the one list of packages: it installs them
# as root, else prints the apt-get line and exits 2.
if [ "$TARGET" = guest ]; then
	"$KDIR/../scripts/install-deps.sh" vm || exit 2
else
	"$KDIR/../scripts/install-deps.sh" bare || exit 2
fi

# ------------------------------------------------------------- unpack
start=$(date +%s)
# one builder per build directory; a second one waits, then takes the
# finished kernel
lock_wait "$CACHE/kernel/.lock-$(basename "$OUT")"
if [ "$MODE" = build ] && [ -f "$OUT/.done" ] && [ -f "$(artifact)" ]; then
	log "built meanwhile by another user of the cache: $OUT"
	artifact
	exit 0
fi

if [ -z "$KSRC" ]; then
	PRISTINE="$CACHE/src/linux-source-$srcver"
	# the one pristine tree of this source, copied by every build of it
	[ -f "$PRISTINE/.done" ] || lock_wait "$CACHE/src/.lock-linux-source-$srcver"
	if [ ! -f "$PRISTINE/.done" ]; then
		log "unpacking $(basename "$deb")"
		rm -rf "$PRISTINE" "$PRISTINE.tmp"
		mkdir -p "$PRISTINE.tmp/deb"
		dpkg-deb -x "$deb" "$PRISTINE.tmp/deb"
		tarball=$(find "$PRISTINE.tmp/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' -print -quit)
		[ -n "$tarball" ] || die "no linux-source tarball in $deb"
		tar -C "$PRISTINE.tmp" -xf "$tarball"
		rm -rf "$PRISTINE.tmp/deb"
		top=$(find "$PRISTINE.tmp" -mindepth 1 -maxdepth 1 -type d -print -quit)
		mv "$top" "$PRISTINE"
		rmdir "$PRISTINE.tmp"
		touch "$PRISTINE/.done"
	fi
else
	PRISTINE="$KSRC"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
log "copying source tree to $OUT/src"
# Hard links keep the copy cheap; patched files are replaced, not edited.
cp -al "$PRISTINE" "$OUT/src" 2>/dev/null || { rm -rf "$OUT/src"; cp -a "$PRISTINE" "$OUT/src"; }
rm -f "$OUT/src/.done"
SRC="$OUT/src"
# an O= build needs a clean source tree (an in-tree build of KSRC is not)
if [ -f "$SRC/.config" ] || [ -d "$SRC/include/config" ]; then
	log "cleaning copied tree (make mrproper)"
	make -s -C "$SRC" mrproper >&2
fi

# ------------------------------------------------------------- patches
shopt -s nullglob
patches=("$KDIR"/patches/*.patch)
[ -z "$VARDIR" ] || patches+=("$VARDIR"/*.patch)
vfrags=()
[ -z "$VARDIR" ] || vfrags=("$VARDIR"/*.config)
shopt -u nullglob
for p in "${patches[@]}"; do
	# break hard links of the files this patch touches
	while read -r f; do
		if [ -f "$SRC/$f" ]; then
			cp -p "$SRC/$f" "$SRC/$f.sbtmp" && mv -f "$SRC/$f.sbtmp" "$SRC/$f"
		fi
	done < <(sed -n 's|^+++ b/\([^\t]*\).*|\1|p' "$p")
	if ! patch -d "$SRC" -p1 --forward --batch --no-backup-if-mismatch -s <"$p" >&2; then
		die "patch does not apply: $(basename "$p")"
	fi
	log "applied $(basename "$p")"
done

# ------------------------------------------------------------- config
BLD="$OUT/build"
mkdir -p "$BLD"
FRAG="$KDIR/configs/guest.config"
[ "$TARGET" = guest ] || FRAG="$KDIR/configs/bare-metal.config"
if [ -n "$VARDIR" ]; then
	# one fragment: the target's lines, each option a variant sets taken
	# out, then the variant's; the release names the variant
	# (7.3.4-none, 7.3.4-slicebench-rt), so does `uname -r`
	base_lv=$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$FRAG")
	{
		cat "${vfrags[@]}" /dev/null |
			awk -F= '/^CONFIG_/ { print "^" $1 "=" }' |
			grep -v -f - "$FRAG" | grep -v '^CONFIG_LOCALVERSION=' || true
		cat "${vfrags[@]}" /dev/null
		printf 'CONFIG_LOCALVERSION="%s-%s"\n' "$base_lv" "$VARIANT"
	} >"$OUT/fragment.config"
	FRAG="$OUT/fragment.config"
fi
if [ "$TARGET" = guest ]; then
	log "configuring: allnoconfig + $(basename "$FRAG")"
	make -s -C "$SRC" O="$BLD" KCONFIG_ALLCONFIG="$FRAG" allnoconfig >&2
	make -s -C "$SRC" O="$BLD" olddefconfig >&2
else
	# base (brought to this source's options first: it may be another
	# version's), then localmodconfig, then the fragment on top, so that
	# localmodconfig cannot take back what the suite needs
	log "configuring: $BASE_DESC${LOCALMOD:+ + localmodconfig} + $(basename "$FRAG")"
	printf '%s\n' "$BASE_TEXT" >"$OUT/base.config"
	cp "$OUT/base.config" "$BLD/.config"
	make -s -C "$SRC" O="$BLD" olddefconfig >&2
	if [ -n "$LOCALMOD" ]; then
		printf '%s\n' "$LSMOD_TEXT" >"$OUT/lsmod"
		log "localmodconfig: keeping the $(($(wc -l <"$OUT/lsmod") - 1)) modules listed"
		make -s -C "$SRC" O="$BLD" LSMOD="$OUT/lsmod" localmodconfig >"$OUT/localmodconfig.log" 2>&1 ||
			{ tail -n 20 "$OUT/localmodconfig.log" >&2; die "make localmodconfig failed"; }
	fi
	(cd "$BLD" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$BLD" .config "$FRAG" >"$OUT/merge.log" 2>&1) ||
		{ tail -n 20 "$OUT/merge.log" >&2; die "merge_config.sh failed"; }
	make -s -C "$SRC" O="$BLD" olddefconfig >&2
fi
missing=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	opt=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		grep -qx "$opt=.*" "$BLD/.config" && { log "config: $opt should be off"; missing=1; }
	elif ! grep -qxF "$line" "$BLD/.config"; then
		log "config: $line did not survive (now: $(grep -E "^(# )?${opt}[= ]" "$BLD/.config" || echo unset))"
		missing=1
	fi
done <"$FRAG"
[ "$missing" = 0 ] || die "config fragment not satisfied; add the missing dependencies to $FRAG"
if [ "$MODE" = prepare ]; then
	# no .done: a later build starts this directory over
	log "prepared in $(($(date +%s) - start)) s: $BLD"
	printf '%s\n' "$BLD"
	exit 0
fi

# ------------------------------------------------------------- build
mtarget=bzImage
[ "$TARGET" = guest ] || mtarget=bindeb-pkg
log "building $mtarget with $JOBS jobs (full output: $OUT/build.log)"
make -C "$SRC" O="$BLD" -j"$JOBS" "$mtarget" >"$OUT/build.log" 2>&1 &
mpid=$!
# Ctrl-C or a kill of this script takes the compile with it
trap 'kill "$mpid" 2>/dev/null' EXIT
show_progress "$mpid" "$OUT/build.log"
rc=0
wait "$mpid" || rc=$?
trap - EXIT
if [ "$rc" != 0 ]; then
	grep -E -B2 -A8 'error:|Error [0-9]' "$OUT/build.log" | tail -n 40 >&2 || tail -n 40 "$OUT/build.log" >&2
	die "kernel build failed (make exit $rc), see $OUT/build.log"
fi
# beside, then renamed: another build's progress may be reading it
grep -c -E "$KBUILD_STEP" "$OUT/build.log" >"$UNITS_FILE.$$" || true
mv -f "$UNITS_FILE.$$" "$UNITS_FILE"
cp "$BLD/.config" "$OUT/config"
make -s -C "$SRC" O="$BLD" kernelrelease >"$OUT/kernelrelease"
if [ "$TARGET" = bare-metal ]; then
	# dpkg-buildpackage leaves the packages beside the build tree
	mkdir -p "$OUT/debs"
	find "$OUT" -maxdepth 1 -type f \( -name '*.deb' -o -name '*.buildinfo' -o -name '*.changes' \) \
		-exec mv -t "$OUT/debs/" {} +
	img=$(find "$OUT/debs" -name "linux-image-$(cat "$OUT/kernelrelease")_*.deb" -print -quit)
	[ -n "$img" ] || die "bindeb-pkg left no linux-image-$(cat "$OUT/kernelrelease") package in $OUT/debs"
	printf '%s\n' "$img" >"$OUT/image-deb"
	{
		printf 'source=%s\n' "$srcid"
		printf 'base=%s\n' "$BASE_DESC"
		printf 'localmodconfig=%s\n' "${LOCALMOD:-no}"
		printf 'inputs=%s\n' "$(inputs_hash)"
		printf 'seconds=%s\n' "$(($(date +%s) - start))"
	} >"$OUT/info"
	# the compiled tree is several GiB and no input of anything later
	rm -rf "$BLD" "$SRC"
	touch "$OUT/.done"
	log "done in $(($(date +%s) - start)) s: $OUT/debs"
	printf '%s\n' "$img"
	exit 0
fi
cp "$BLD/arch/x86/boot/bzImage" "$OUT/bzImage"

# ------------------------------------------------------------- slice_test
log "building rseq slice_test (static)"
make -s -C "$SRC" O="$BLD" INSTALL_HDR_PATH="$OUT/headers" headers_install >&2
ST="$SRC/tools/testing/selftests/rseq"
if [ -f "$ST/slice_test.c" ]; then
	gcc -O2 -Wall -static -I"$ST" -I"$SRC/tools/testing/selftests" -I"$OUT/headers/include" -I"$SRC/tools/include" \
		-I"$SRC/tools/arch/x86/include" -o "$OUT/slice_test" \
		"$ST/slice_test.c" "$ST/rseq.c" -lpthread -ldl >"$OUT/slice_test.log" 2>&1 ||
		{ cat "$OUT/slice_test.log" >&2; die "slice_test build failed"; }
else
	log "warning: $ST/slice_test.c not in this tree; no selftest"
fi

{
	printf 'source=%s\n' "$srcid"
	printf 'inputs=%s\n' "$(inputs_hash)"
	printf 'seconds=%s\n' "$(($(date +%s) - start))"
} >"$OUT/info"
touch "$OUT/.done"
log "done in $(($(date +%s) - start)) s: $OUT"
printf '%s\n' "$OUT/bzImage"
