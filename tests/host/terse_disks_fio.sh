#!/bin/bash
# The terse line's disk fields (fio's show_disk_util in terse mode: name,
# read/write ios, merges, ticks, in_queue, util% for every disk of the run,
# on every job's line) against fio 3.33 running the same jobs: the same
# field count and disk name; iodig's ios exactly the jobs' direct I/Os on
# a raw loop device.  fio samples its disks every 250 ms while a job runs,
# so its counts lag (0 for a short job): they are checked to be at most
# the jobs' own, never equal to iodig's.  Then a file on ext4 on a loop
# device beside a job on the raw one: the ext4 loop device is named, its
# reads at least the job's, and both disks are on both lines in fio's order.
# timeout: 240
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
IODIG_RUN=("$IODIG" run --no-probes --no-save --no-progress)
DISK=$(basename "$LOOP")
truncate -s 4m "$TMP/idle"
# Two jobs at once on the raw device (8 MiB of reads, 4 MiB of writes),
# then a job on tmpfs (no disk) that still carries the disk's fields.
JOBS=(--direct=1 --bs=4k --ioengine=psync
      --name=r --filename="$LOOP" --size=8m --rw=randread
      --name=w --filename="$LOOP" --offset=32m --size=4m --rw=randwrite
      --name=idle --stonewall --filename="$TMP/idle" --size=1m --rw=read
      --time_based --runtime=300ms)
# fio prints its "name: (g=0): rw=..." lines before the terse ones here
terse_lines() { grep '^3;' >"$1"; }
fio "${JOBS[@]}" --output-format=terse 2>"$TMP/f.err" | terse_lines "$TMP/f.terse"
check "fio runs ($(head -c 200 "$TMP/f.err"))" test "$(wc -l <"$TMP/f.terse")" = 3
"${IODIG_RUN[@]}" "${JOBS[@]}" --output-format=terse >"$TMP/i.terse" 2>"$TMP/i.err"
check "iodig runs ($(head -c 200 "$TMP/i.err"))" test "$(wc -l <"$TMP/i.terse")" = 3

# per line: job, field count, disk name, then the 8 figures
disk_fields() { awk -F';' '{ print $3, NF, $122, $123, $124, $125, $126, $127, $128, $129, $130 }' "$1"; }
nth() { disk_fields "$1" | sed -n "$2p" | cut -d' ' -f"$3"; }
for n in 1 2 3; do
	job=$(nth "$TMP/i.terse" "$n" 1)
	check "$job: $(nth "$TMP/i.terse" "$n" 2) fields, fio's $(nth "$TMP/f.terse" "$n" 2)" \
		test "$(nth "$TMP/i.terse" "$n" 2)" = "$(nth "$TMP/f.terse" "$n" 2)"
	check "$job: disk $(nth "$TMP/i.terse" "$n" 3), fio's $(nth "$TMP/f.terse" "$n" 3), is $DISK" \
		test "$(nth "$TMP/i.terse" "$n" 3)" = "$DISK" -a "$(nth "$TMP/f.terse" "$n" 3)" = "$DISK"
	check "$job: the same disk figures on every line" \
		test "$(nth "$TMP/i.terse" "$n" 3-11)" = "$(nth "$TMP/i.terse" 1 3-11)"
done
# the jobs' I/Os from their own kB fields (read kB is field 6, write 47)
kb_ios() { awk -F';' -v j="$2" -v f="$3" '$3 == j { print $f / 4 }' "$1"; }
reads=$(kb_ios "$TMP/i.terse" r 6) writes=$(kb_ios "$TMP/i.terse" w 47)
check "iodig's jobs did 2048 reads and 1024 writes (got $reads, $writes)" \
	test "$reads" = 2048 -a "$writes" = 1024
check "fio's jobs did the same ($(kb_ios "$TMP/f.terse" r 6), $(kb_ios "$TMP/f.terse" w 47))" \
	test "$(kb_ios "$TMP/f.terse" r 6)" = 2048 -a "$(kb_ios "$TMP/f.terse" w 47)" = 1024
check "iodig's disk ios are the jobs' ($(nth "$TMP/i.terse" 1 4-5))" \
	test "$(nth "$TMP/i.terse" 1 4-5)" = "2048 1024"
check "fio's sampled disk ios are at most the jobs' ($(nth "$TMP/f.terse" 1 4-5))" \
	test "$(nth "$TMP/f.terse" 1 4)" -le 2048 -a "$(nth "$TMP/f.terse" 1 5)" -le 1024
check "no merges of direct 4k I/Os at depth 1 ($(nth "$TMP/i.terse" 1 6-7))" \
	test "$(nth "$TMP/i.terse" 1 6-7)" = "0 0"
# in_queue sums both directions' ticks (each rounded to ms on its own: +1)
ticks_ok() { awk '{ exit !($8 + $9 > 0 && $10 + 1 >= $8 && $10 + 1 >= $9) }' <<<"$1"; }
check "ticks and in_queue counted ($(nth "$TMP/i.terse" 1 8-10))" \
	ticks_ok "$(nth "$TMP/i.terse" 1 1-11)"
pct_ok() { [[ $1 =~ ^[0-9]+\.[0-9]{2}%$ ]] && awk -v u="${1%\%}" 'BEGIN { exit !(u > 0 && u <= 100) }'; }
check "util a percentage in (0, 100], as fio's %3.2f%% ($(nth "$TMP/i.terse" 1 11))" \
	pct_ok "$(nth "$TMP/i.terse" 1 11)"

# --- a file on ext4 on a loop device: the device under the filesystem, ------
# then the raw device's job: two disks, in the jobs' order, on both lines
RAW=$DISK RAW_DEV=$LOOP
make_loop 64 || skip "cannot make a second loop device"
mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || skip "no mkfs.ext4"
mkdir -p "$TMP/mnt"
mount "$LOOP" "$TMP/mnt" || skip "cannot mount ext4"
DISK=$(basename "$LOOP")
F=(--direct=1 --bs=4k --size=4m --rw=randread --ioengine=psync
   --name=f --filename="$TMP/mnt/f" --name=g --filename="$RAW_DEV")
fio "${F[@]}" --output-format=terse 2>"$TMP/fe.err" | terse_lines "$TMP/fe.terse"
"${IODIG_RUN[@]}" "${F[@]}" --output-format=terse >"$TMP/ie.terse" 2>"$TMP/ie.err"
check "ext4: $(nth "$TMP/ie.terse" 1 2) fields, fio's $(nth "$TMP/fe.terse" 1 2)" \
	test "$(nth "$TMP/ie.terse" 1 2)" = "$(nth "$TMP/fe.terse" 1 2)" -a -n "$(nth "$TMP/fe.terse" 1 2)"
check "ext4: disk $(nth "$TMP/ie.terse" 1 3), fio's $(nth "$TMP/fe.terse" 1 3), is $DISK" \
	test "$(nth "$TMP/ie.terse" 1 3)" = "$DISK" -a "$(nth "$TMP/fe.terse" 1 3)" = "$DISK"
names() { awk -F';' '{ print NF, $122, $131 }' "$1"; }
check "two disks: $(names "$TMP/ie.terse" | tr '\n' ' ')as fio's, in the jobs' order" \
	test "$(names "$TMP/ie.terse")" = "$(names "$TMP/fe.terse")" \
	-a "$(names "$TMP/ie.terse" | sort -u)" = "139 $DISK $RAW"
check "ext4: the device's reads at least the job's 1024 ($(nth "$TMP/ie.terse" 1 4))" \
	test "$(nth "$TMP/ie.terse" 1 4)" -ge 1024
check "ext4: util a percentage ($(nth "$TMP/ie.terse" 1 11))" pct_ok "$(nth "$TMP/ie.terse" 1 11)"
umount "$TMP/mnt"
done_testing
