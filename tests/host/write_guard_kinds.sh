# The destructive-write guard through the iodig binary: refuses a mounted filesystem, a partitioned disk and its partition, a swap signature and active swap; allows a regular file; --allow-destructive is the only way past.
source tests/host/lib.sh
need_root
command -v mkfs.ext4 >/dev/null && command -v mkswap >/dev/null && command -v sfdisk >/dev/null ||
	skip "needs mkfs.ext4, mkswap and sfdisk (make deps)"
SWAPON=
cleanup_swap() { [ -n "$SWAPON" ] && swapoff "$SWAPON" 2>/dev/null; cleanup; }
trap cleanup_swap EXIT

# refused WHAT DEVICE PATTERN: a write job on DEVICE fails, names DEVICE,
# matches PATTERN and --allow-destructive, and changes nothing.
refused() {
	local what=$1 dev=$2 pat=$3 before rc
	before=$(md5sum <"$dev")
	"$IODIG" run --no-probes --name=w --filename="$dev" --rw=randwrite --bs=4k --size=1m \
		--ioengine=psync --direct=1 --output="$TMP/out.txt" >/dev/null 2>"$TMP/err"
	rc=$?
	check "$what: write refused (exit $rc)" [ "$rc" -ne 0 ]
	check "$what: message names $dev and /$pat/: $(cat "$TMP/err")" grep -Eq "$dev.*($pat)" "$TMP/err"
	check "$what: message names --allow-destructive" grep -q -- "--allow-destructive" "$TMP/err"
	check "$what: no output written" [ ! -e "$TMP/out.txt" ]
	check "$what: device unchanged" [ "$(md5sum <"$dev")" = "$before" ]
}

# 1. A mounted filesystem.
make_loop 64 || skip "cannot create a loop device"
# Mounted read-only: a read-write ext4 changes its own device after the
# mount (ext4lazyinit zeroing inode tables, then, with lazy init off,
# still some metadata write-back: each broke the "unchanged" check in one
# CI run), and the guard must refuse any mounted filesystem alike.
mkfs.ext4 -q -F "$LOOP" && mkdir -p "$TMP/mnt" &&
	mount -o ro "$LOOP" "$TMP/mnt" || skip "cannot mount ext4"
refused "mounted ext4" "$LOOP" "mounted|ext4|in use"
umount "$TMP/mnt"

# 2. A partitioned disk, partitions scanned: the whole disk and a partition.
truncate -s 64M "$TMP/parted"
printf 'label: gpt\n,16M,L\n,,L\n' | sfdisk -q "$TMP/parted" >/dev/null || skip "sfdisk failed"
PART=$(losetup -fP --show "$TMP/parted") || skip "cannot create a partitioned loop device"
LOOPS+=("$PART")
# Kernels without the partition parser need BLKPG (partx) to add them.
[ -b "${PART}p2" ] || partx -a "$PART" 2>/dev/null
for i in $(seq 50); do [ -b "${PART}p2" ] && break; sleep 0.1; done
[ -b "${PART}p2" ] || skip "kernel did not create ${PART}p2"
mkfs.ext4 -q -F "${PART}p2" || skip "mkfs.ext4 on ${PART}p2 failed"
refused "partitioned disk" "$PART" "partition|gpt"
refused "partition with ext4" "${PART}p2" "ext4"

# 3. A swap signature, then active swap.
make_loop 32 || skip "cannot create a loop device"
mkswap -q "$LOOP" >/dev/null || skip "mkswap failed"
refused "swap signature" "$LOOP" "swap"
if swapon "$LOOP" 2>/dev/null; then
	SWAPON=$LOOP
	refused "active swap" "$LOOP" "swap"
	swapoff "$LOOP" && SWAPON=
else
	echo "note: swapon not possible here; active swap not checked"
fi

# 4. --allow-destructive gets past the swap signature, and only it does.
"$IODIG" run --no-probes --allow-destructive --name=w --filename="$LOOP" --rw=write --bs=4k \
	--size=1m --ioengine=psync --direct=1 >/dev/null 2>"$TMP/err"
rc=$?
check "--allow-destructive writes to the swap device (exit $rc): $(cat "$TMP/err")" [ "$rc" -eq 0 ]
check "swap signature overwritten" bash -c "! blkid -p -s TYPE -o value '$LOOP' | grep -q swap"

# 5. A regular file is allowed without the flag.
"$IODIG" run --no-probes --name=w --filename="$TMP/file" --rw=randwrite --bs=4k --size=2m \
	--ioengine=psync --output-format=json >"$TMP/file.json" 2>"$TMP/err"
rc=$?
check "regular file: write allowed (exit $rc): $(cat "$TMP/err")" [ "$rc" -eq 0 ]
check "regular file: 2 MiB written" [ "$(jqr '.jobs[0].write.io_bytes' "$TMP/file.json")" -eq 2097152 ]
done_testing
