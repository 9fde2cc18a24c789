#!/usr/bin/env bash
# install-deps.sh [--check] [build|quick|check|run|vm|tests|bare|all] - make sure the
# Debian packages a step needs are installed: installs them when root, else
# prints the exact apt-get line and exits 2.  --check never installs: it only
# prints what is missing and exits 2 (the build uses it: compiling never
# installs anything).
set -euo pipefail

only_check=0
if [ "${1:-}" = --check ]; then
	only_check=1
	shift
fi

build=(build-essential pkg-config libpfm4-dev libhwloc-dev libjansson-dev libgsl-dev zlib1g-dev
	libtracefs-dev libtraceevent-dev libbpf-dev clang llvm)
run=(gnuplot-nox jq)
check=(jq valgrind rt-tests linux-perf gnuplot-nox clang libclang-rt-14-dev slurm-wlm munge time chromium man-db)
# GLib's own threading tests, run under the preload library (tests/t-glib.sh).
check+=(libglib2.0-tests)
vm=(qemu-system-x86 busybox-static cpio xz-utils flex bison libelf-dev libssl-dev bc rsync python3 file jq
	gcc make libc6-dev)
# The applications configs/applications.json runs in the guest, as Debian ships them.
vm+=(sysbench memcached libmemcached-tools)
# cyclictest, the cross-check of the guest's calibration (kernel/init).
vm+=(rt-tests)
# A kernel for this machine as Debian packages (make bindeb-pkg): the
# binary Build-Depends of the kernel's scripts/package/mkdebian beyond vm's
# (dpkg-buildpackage checks them all, debhelper-compat included).
bare=(dpkg-dev kmod libdw-dev debhelper)

case "${1:-all}" in
build) want=("${build[@]}") ;;
# make check-quick: what ./run.sh installs (the build, gnuplot and jq)
quick) want=("${build[@]}" "${run[@]}") ;;
# make check and the sanitizer pass: everything but the bare-metal package's
tests) want=("${build[@]}" "${run[@]}" "${check[@]}" "${vm[@]}") ;;
run) want=("${build[@]}" "${run[@]}") ;;
check) want=("${build[@]}" "${check[@]}") ;;
vm) want=("${build[@]}" "${vm[@]}") ;;
bare) want=("${build[@]}" "${vm[@]}" "${bare[@]}") ;;
all) want=("${build[@]}" "${run[@]}" "${check[@]}" "${vm[@]}" "${bare[@]}") ;;
*) echo "usage: $0 [--check] [build|quick|check|run|vm|tests|bare|all]" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
	if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$only_check" = 1 ] || [ "$(id -u)" -ne 0 ]; then
	echo "slicebench needs these Debian packages; run as root:" >&2
	echo "  apt-get install -y ${missing[*]}" >&2
	exit 2
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# another user of this machine installing at the same time holds dpkg's
# lock: wait for it rather than fail
apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}" >&2
