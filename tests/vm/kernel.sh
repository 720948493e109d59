# Debian kernels for the QEMU lab: pick, download, unpack, depmod (sourced by
# tests/vm/lab.sh).  Downloads and unpacked trees live in $VM_CACHE and are
# reused; every function returns non-zero with $VM_WHY set when it cannot go on.

# Package patterns: the stock amd64 flavour (not -cloud, whose config drops
# nvdimm), and 6.12 with PREEMPT_RT (a subset of the scenarios: lab.sh).
VM_KERNEL_PATTERNS=(
	'^linux-image-6\.1\.0-[0-9]+-amd64$'
	'^linux-image-6\.12\.[0-9]+\+deb12-amd64$'
	'^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64$'
)

# kernel_pick PATTERN: sets VM_PKG to the newest package name apt knows, else
# the newest one already in the cache (offline reruns).  Results go to
# variables, not stdout, so that VM_WHY survives (no subshell).
kernel_pick() {
	local pat=$1 pkg
	pkg=$(apt-cache search --names-only "$pat" 2>/dev/null | awk '{print $1}' |
	      sort -V | tail -n 1)
	if [ -z "$pkg" ] && [ -z "${VM_APT_UPDATED:-}" ]; then
		# A fresh container has no package lists yet.
		VM_APT_UPDATED=1
		apt-get update -qq >/dev/null 2>&1
		pkg=$(apt-cache search --names-only "$pat" 2>/dev/null | awk '{print $1}' |
		      sort -V | tail -n 1)
	fi
	if [ -z "$pkg" ]; then
		pkg=$(ls "$VM_CACHE"/debs/ 2>/dev/null | sed -n 's/_.*\.deb$//p' |
		      grep -E "$pat" | sort -V | tail -n 1)
	fi
	[ -n "$pkg" ] || { VM_WHY="no package matches $pat (apt-cache search found none; run apt-get update)"; return 1; }
	VM_PKG=$pkg
}

# kernel_fetch PKG: sets VM_DEB to PKG's .deb in the cache, downloading it
# with apt-get download when it is not there yet.
kernel_fetch() {
	local pkg=$1 deb
	mkdir -p "$VM_CACHE/debs"
	deb=$(ls "$VM_CACHE/debs/${pkg}"_*.deb 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		# apt's _apt sandbox user cannot write into a root-owned cache.
		if ! (cd "$VM_CACHE/debs" && apt-get download -q -o APT::Sandbox::User=root \
		      "$pkg" >"$VM_CACHE/debs/download.log" 2>&1); then
			VM_WHY="apt-get download $pkg failed (no network?): $(tail -n 1 "$VM_CACHE/debs/download.log")"
			rm -f "$VM_CACHE/debs/${pkg}"_*.deb
			return 1
		fi
		deb=$(ls "$VM_CACHE/debs/${pkg}"_*.deb 2>/dev/null | tail -n 1)
	fi
	[ -n "$deb" ] || { VM_WHY="apt-get download $pkg left no .deb in $VM_CACHE/debs"; return 1; }
	VM_DEB=$deb
}

# kernel_prune PATTERN PKG: drops cached packages and trees of PATTERN's
# series other than PKG, so the cache holds one kernel per series.
kernel_prune() {
	local pat=$1 keep=$2 deb pkg
	for deb in "$VM_CACHE"/debs/*.deb; do
		[ -f "$deb" ] || continue
		pkg=$(basename "$deb"); pkg=${pkg%%_*}
		if [ "$pkg" != "$keep" ] && echo "$pkg" | grep -qE "$pat"; then
			rm -rf "$deb" "$VM_CACHE/root/${pkg#linux-image-}"
		fi
	done
}

# kernel_unpack DEB VERSION: unpacks into $VM_CACHE/root/VERSION once and runs
# depmod there (the package's postinst normally does that).  A stamp marks a
# finished unpack so an interrupted one is redone.
kernel_unpack() {
	local deb=$1 ver=$2 root=$VM_CACHE/root/$2
	if [ ! -f "$root/.unpacked" ]; then
		rm -rf "$root"
		mkdir -p "$root"
		dpkg -x "$deb" "$root" || { VM_WHY="dpkg -x $deb failed"; return 1; }
		depmod -b "$root" "$ver" || { VM_WHY="depmod -b $root $ver failed"; return 1; }
		touch "$root/.unpacked"
	fi
	[ -f "$root/boot/vmlinuz-$ver" ] || { VM_WHY="$deb has no boot/vmlinuz-$ver"; return 1; }
}

# kernel_module_order VERSION MODULE...: sets VM_ORDER to the module paths
# (relative to the modules dir), dependencies first, each once.  modules.dep lists a module's
# full dependency closure, deepest last, so reversing it gives a load order.
kernel_module_order() {
	local ver=$1; shift
	local dir=$VM_CACHE/root/$ver/lib/modules/$ver m line deps
	local -A seen=()
	VM_ORDER=()
	for m in "$@"; do
		line=$(grep -E "/${m//[-_]/[-_]}\.ko(\.xz|\.zst|\.gz)?:" "$dir/modules.dep") || {
			VM_WHY="module $m not in $dir/modules.dep (built in or missing)"
			grep -qE "/${m//[-_]/[-_]}\.ko$" "$dir/modules.builtin" && continue
			return 1
		}
		deps=$(echo "${line#*:}" | tr ' ' '\n' | tac)
		for p in $deps "${line%%:*}"; do
			[ -n "$p" ] && [ -z "${seen[$p]:-}" ] && { seen[$p]=1; VM_ORDER+=("$p"); }
		done
	done
}
