# Builds the lab's initramfs (sourced by tests/vm/lab.sh): a userland archive
# shared by every kernel (busybox-static, iodig, fio, mke2fs, dmsetup and their shared
# libraries) and a per-kernel module archive.  The kernel unpacks
# concatenated newc archives in order, so the two are simply joined.

# Modules the guest loads, in this order; dependencies come from modules.dep.
# crc32c_generic is only a softdep of ext4/jbd2, so modules.dep misses it.
VM_MODULES=(configfs null_blk brd libnvdimm nd_btt nd_pmem nd_e820
	    crc32c_generic crc16 mbcache jbd2 ext4 nvme)
# ioengine=libzbc: scsi_debug's zoned SCSI disk, its sd and sg devices.
VM_MODULES+=(scsi_mod sd_mod sg scsi_debug)
# Loaded where the kernel has them: MTD's RAM flash (mtdram, the mtd
# engine's device) and device-DAX (the dev-dax engine's), which Debian's
# PREEMPT_RT kernel does not build.
VM_OPTIONAL_MODULES=(mtd mtdram device_dax dax_pmem)
# device-mapper (dm-linear is in dm_mod): the dm scenario's device with
# slaves.
VM_OPTIONAL_MODULES+=(dm_mod)

# present_modules VERSION MODULE...: the MODULEs VERSION's modules.dep lists.
present_modules() {
	local dep=$VM_CACHE/root/$1/lib/modules/$1/modules.dep m; shift
	for m in "$@"; do
		grep -qE "/${m//[-_]/[-_]}\.ko(\.xz|\.zst|\.gz)?:" "$dep" && echo "$m"
	done
}

# copy_libs ROOT FILE: each shared library (and the dynamic loader) ldd
# names for FILE, at the same path under ROOT.
copy_libs() {
	local root=$1 lib
	for lib in $(ldd "$2" | awk '/=>/ && $3 ~ /^\// {print $3} /^\t\// {print $1}'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib" || return 1
	done
}

# lazy_libs BINARY: the libraries BINARY opens itself when a job needs one
# (base/lazy_lib.h: libpmem, libcrypto), which ldd does not list: every
# soname among its strings that the loader's cache resolves.
lazy_libs() {
	local soname
	for soname in $(strings "$1" | grep -E '^lib[a-z0-9_+-]+\.so\.[0-9]+$' | sort -u); do
		ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64/ { print $NF; exit }'
	done
}

# copy_with_libs ROOT BINARY...: BINARY into ROOT/bin with the libraries
# it is linked with and those it opens itself, at the same paths under ROOT.
copy_with_libs() {
	local root=$1 bin lib; shift
	mkdir -p "$root/bin"
	for bin in "$@"; do
		# Replace busybox's applet link of the same name, not busybox itself.
		rm -f "$root/bin/$(basename "$bin")"
		cp -L "$bin" "$root/bin/" || return 1
		copy_libs "$root" "$bin" || return 1
		for lib in $(lazy_libs "$bin"); do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib" && copy_libs "$root" "$lib" || return 1
		done
	done
}

# pack_cpio DIR FILE: newc archive of DIR, owned by root.
pack_cpio() {
	(cd "$1" && find . -mindepth 1 | busybox cpio -o -H newc -R 0:0 >"$2" 2>/dev/null)
}

# initramfs_userland DIR IODIG HOLD: the shared archive DIR/userland.cpio,
# rebuilt when iodig, the key holder (tests/vm/swkeys_hold.c) or a lab
# script changed.
initramfs_userland() {
	local dir=$1 iodig=$2 hold=$3 root=$1/userland
	local out=$dir/userland.cpio here
	here=$(dirname "${BASH_SOURCE[0]}")
	if [ -f "$out" ] && [ "$out" -nt "$iodig" ] && [ "$out" -nt "$hold" ] &&
	   [ -z "$(find "$here" -newer "$out" -name '*.sh')" ]; then
		return 0
	fi
	rm -rf "$root"
	mkdir -p "$root"/{bin,etc,proc,sys,dev,tmp,mnt/pmem,results,lib/modules}
	cp /bin/busybox "$root/bin/busybox" || { VM_WHY="busybox-static not installed"; return 1; }
	for app in $(busybox --list); do
		[ -e "$root/bin/$app" ] || ln -s busybox "$root/bin/$app"
	done
	# busybox mke2fs makes ext2 only; ext4 with DAX needs e2fsprogs' mke2fs.
	# dmsetup makes the dm scenario's device.
	copy_with_libs "$root" "$iodig" "$hold" "$(command -v fio)" "$(command -v mke2fs)" \
		"$(command -v dmsetup)" || {
		VM_WHY="copying iodig, swkeys_hold, fio, mke2fs or dmsetup and their libraries failed"; return 1; }
	cp /etc/mke2fs.conf "$root/etc/" 2>/dev/null
	ln -s /proc/mounts "$root/etc/mtab"
	cp "$here/guest-init.sh" "$root/init"
	cp "$here/scenarios.sh" "$root/bin/scenarios.sh"
	chmod +x "$root/init" "$root/bin/scenarios.sh"
	pack_cpio "$root" "$out" || { VM_WHY="busybox cpio failed on $root"; return 1; }
	rm -rf "$root"
}

# initramfs_kernel DIR VERSION: DIR/initrd-VERSION.cpio = userland plus the
# modules of VERSION, decompressed (busybox insmod does not read .ko.xz) and
# listed in load order in /lib/modules/load.list.
initramfs_kernel() {
	local dir=$1 ver=$2 root=$1/modules-$2 p name
	local src=$VM_CACHE/root/$2/lib/modules/$2
	kernel_module_order "$ver" "${VM_MODULES[@]}" \
		$(present_modules "$ver" "${VM_OPTIONAL_MODULES[@]}") || return 1
	rm -rf "$root"
	mkdir -p "$root/lib/modules"
	: >"$root/lib/modules/load.list"
	for p in "${VM_ORDER[@]}"; do
		name=$(basename "$p"); name=${name%%.ko*}
		case $p in
		*.xz)  xz -dc "$src/$p" >"$root/lib/modules/$name.ko" ;;
		*.zst) zstd -qdc "$src/$p" >"$root/lib/modules/$name.ko" ;;
		*)     cp "$src/$p" "$root/lib/modules/$name.ko" ;;
		esac || { VM_WHY="cannot decompress $src/$p"; return 1; }
		echo "$name" >>"$root/lib/modules/load.list"
	done
	pack_cpio "$root" "$dir/modules-$ver.cpio" || { VM_WHY="busybox cpio failed on $root"; return 1; }
	cat "$dir/userland.cpio" "$dir/modules-$ver.cpio" >"$dir/initrd-$ver.cpio"
	rm -rf "$root" "$dir/modules-$ver.cpio"
}
