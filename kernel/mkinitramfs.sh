#!/bin/bash
# Build the slicebench guest initramfs (gzip newc cpio): busybox-static,
# kernel/init, the harness with every shared library ldd lists plus the
# dynamic loader, configs/*.json and the rseq slice_test selftest.
set -euo pipefail

KDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$KDIR")
OUT=""
HARNESS="$REPO/build/slicebench"
CONFIGS="$REPO/configs"
SLICE_TEST=""
BUSYBOX=""
PRELOAD="$REPO/build/libslicepreload.so"
# The applications the program workloads run as they are (configs/applications.json),
# and cyclictest, the cross-check of the guest's calibration (kernel/init).
PROGRAMS="sysbench xz memcached memcaslap cyclictest"

usage() {
	cat <<EOF
usage: kernel/mkinitramfs.sh --out FILE [options]

  --out FILE          initramfs to write (gzip cpio)
  --harness PATH      harness binary (default: build/slicebench; left out
                      with a warning if it does not exist)
  --configs DIR       directory of *.json suite configs (default: configs/)
  --slice-test PATH   static slice_test (default: the one kernel/build.sh
                      built next to the cached kernel, if any)
  --busybox PATH      static busybox (default: busybox-static's)
  --preload PATH      the preload library, put next to the harness
                      (default: build/libslicepreload.so, if built)
  --programs LIST     space-separated programs copied from this machine's
                      PATH with their libraries, where installed
                      (default: "$PROGRAMS")
  -h, --help          this text

Exit: 0 ok, 1 failure, 2 usage.
EOF
}

log() { printf 'mkinitramfs.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# a usage error is one line and where to read more, not the whole help
usage_err() { log "$*"; echo "try 'kernel/mkinitramfs.sh --help'" >&2; exit 2; }
# value OPTION ARG...: the option's value is there and not empty (bash's
# own ${2:?} said "2: parameter null or not set" with exit 1); value0: it
# may be empty
value() { [ -n "${2:-}" ] || usage_err "$1 needs a value"; }
value0() { [ $# -ge 2 ] || usage_err "$1 needs a value"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--out) value "$@"; OUT=$2; shift 2 ;;
	--harness) value "$@"; HARNESS=$2; shift 2 ;;
	--configs) value "$@"; CONFIGS=$2; shift 2 ;;
	--slice-test) value "$@"; SLICE_TEST=$2; shift 2 ;;
	--busybox) value "$@"; BUSYBOX=$2; shift 2 ;;
	--preload) value "$@"; PRELOAD=$2; shift 2 ;;
	--programs) value0 "$@"; PROGRAMS=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_err "unknown option: $1" ;;
	esac
done
[ -n "$OUT" ] || usage_err "--out FILE is required"

if [ -z "$BUSYBOX" ]; then
	for b in /bin/busybox /usr/bin/busybox; do
		[ -x "$b" ] || continue
		# no `file | grep -q` under pipefail: grep quitting early would
		# fail the pipeline with SIGPIPE and skip a good busybox
		case "$(file -L "$b")" in *'statically linked'*) BUSYBOX=$b; break ;; esac
	done
fi
if [ -z "$BUSYBOX" ]; then
	if [ "$(id -u)" = 0 ]; then
		log "installing busybox-static"
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q busybox-static >&2 || die "cannot install busybox-static"
		BUSYBOX=/bin/busybox
	else
		log "missing static busybox; run as root: apt-get install -y busybox-static"
		exit 2
	fi
fi
if [ -z "$SLICE_TEST" ]; then
	if kdir=$("$KDIR/build.sh" --print-dir 2>/dev/null) && [ -x "$kdir/slice_test" ]; then
		SLICE_TEST="$kdir/slice_test"
	fi
fi

ROOT=$(mktemp -d)
trap 'rm -rf "$ROOT"' EXIT
mkdir -p "$ROOT"/{bin,sbin,dev,proc,sys,tmp,root,configs,etc,usr/bin,usr/sbin}
cp "$BUSYBOX" "$ROOT/bin/busybox"
for applet in $("$BUSYBOX" --list); do
	[ -e "$ROOT/bin/$applet" ] || ln -s busybox "$ROOT/bin/$applet"
done
install -m 0755 "$KDIR/init" "$ROOT/init"
# the kernel needs /dev/console before init runs (devtmpfs is mounted later)
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$ROOT/dev/console" c 5 1
	mknod -m 666 "$ROOT/dev/null" c 1 3
else
	log "warning: not root, no /dev/console node; the guest may have no console"
fi
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ROOT/etc/passwd"
printf 'root:x:0:\n' >"$ROOT/etc/group"

copy_with_path() {
	local f=$1
	mkdir -p "$ROOT$(dirname "$f")"
	cp -L "$f" "$ROOT$f"
}

if [ -x "$HARNESS" ]; then
	cp "$HARNESS" "$ROOT/bin/slicebench"
	if ldd "$HARNESS" >/dev/null 2>&1; then
		while read -r lib; do
			copy_with_path "$lib"
		done < <(ldd "$HARNESS" | awk '/=> \// { print $3 } /^[[:space:]]*\// { print $1 }' | sort -u)
	fi
	log "harness: $HARNESS ($(find "$ROOT/lib" "$ROOT/lib64" "$ROOT/usr/lib" -type f 2>/dev/null | wc -l) libraries)"
else
	log "warning: no harness at $HARNESS; the guest can run the selftest only"
fi

# An ELF file and every library it loads, at the paths ldd names them by
# (a RUNPATH's /usr/bin/../lib made plain), so the guest's loader finds them.
copy_elf() {
	local f=$1 dest=$2 lib
	mkdir -p "$ROOT$(dirname "$dest")"
	cp -L "$f" "$ROOT$dest"
	ldd "$f" >/dev/null 2>&1 || return 0
	while read -r lib; do
		copy_with_path "$(realpath -s "$lib")"
	done < <(ldd "$f" | awk '/=> \// { print $3 } /^[[:space:]]*\// { print $1 }' | sort -u)
}
if [ -f "$PRELOAD" ]; then
	copy_elf "$PRELOAD" /bin/libslicepreload.so
else
	log "warning: no preload library at $PRELOAD; the program workloads' library arms will fail"
fi
for prog in $PROGRAMS; do
	if path=$(command -v "$prog"); then
		copy_elf "$path" "/usr/bin/$prog"
	else
		log "warning: $prog is not installed here (scripts/install-deps.sh vm); left out"
	fi
done
[ -n "$PROGRAMS" ] && log "programs: $PROGRAMS"

shopt -s nullglob
cfgs=("$CONFIGS"/*.json)
shopt -u nullglob
[ "${#cfgs[@]}" -gt 0 ] && cp "${cfgs[@]}" "$ROOT/configs/"

if [ -n "$SLICE_TEST" ]; then
	cp "$SLICE_TEST" "$ROOT/bin/slice_test"
else
	log "warning: no slice_test (build the kernel with kernel/build.sh first)"
fi

# The same inputs give the same bytes: one mtime for every file, cpio's
# --reproducible (no device or inode numbers of this machine), gzip -n (no
# name or time stamp).  Users writing one --out at once then all leave
# what each of them built; each writes beside it and renames.
find "$ROOT" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$OUT")"
tmp=$(mktemp "$OUT.tmp.XXXXXX")
(cd "$ROOT" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --reproducible -R 0:0) |
	gzip -1 -n >"$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$OUT"
log "wrote $OUT ($(du -h "$OUT" | cut -f1))"
printf '%s\n' "$OUT"
