# io_uring_cmd and sg: fio's job files for them parse, their options are checked as fio's HOWTO defines them (io_uring_cmd's trims: num_range's bounds and fio's checks), and a target that is not an NVMe generic or SCSI device is refused before anything is written, naming it.  Where the machine has /dev/ng* or /dev/sg*, a short read job does the I/Os fio does.
source tests/host/lib.sh
need_root
CORPUS=/work/shared/fio-corpus
make_loop 16 || skip "cannot create a loop device"

# The corpus's job files parse and pass the job checks: they stop only at
# the target (--target in a missing directory), never at an option.
if [ -d "$CORPUS" ]; then
	for f in uring-cmd-ng uring-cmd-pi-ext uring-cmd-pi-sb uring-cmd-zoned \
		 uring-cmd-write-mode uring-cmd-trim-multi-range sg_verify sg_verify-fail sg_write_same_ndob; do
		job=$CORPUS/fio__examples_$f.fio
		"$IODIG" run --no-probes --no-save --target="$TMP/absent/target" \
			"$job" >/dev/null 2>"$TMP/err"
		check "$f.fio parses; stops at the missing target" \
			grep -q "$TMP/absent" "$TMP/err"
	done
fi

# Options, as fio defines them.
ucmd=(--ioengine=io_uring_cmd --filename=/dev/null --rw=randread)
refused "cmd_type=bsg" "'bsg' is not supported" "${ucmd[@]}" --cmd_type=bsg
refused "write_mode shares" "make 70, not 100" "${ucmd[@]}" --write_mode=write/40:zeroes/30
refused "write_mode word" "is not MODE" "${ucmd[@]}" --write_mode=trim
refused "pi_chk word" "'FOO' is not GUARD" "${ucmd[@]}" --pi_chk=GUARD,FOO
refused "fdp_pli list" "fdp_pli: expected" "${ucmd[@]}" --fdp_pli=1-3,x
refused "fixedbufs vectored" "needs nonvectored=1" "${ucmd[@]}" --fixedbufs=1 --nonvectored=0
refused "direct=1" "cannot be opened with O_DIRECT" "${ucmd[@]}" --direct=1
refused "zone_append without zbd" "needs zonemode=zbd" "${ucmd[@]}" --write_mode=zone_append
refused "nowait: fio's fails every command" "nowait=1 with ioengine=io_uring_cmd: fio 3.33 puts RWF_NOWAIT" "${ucmd[@]}" --nowait=1
refused "uncached: fio's fails every command" "uncached with ioengine=io_uring_cmd: fio 3.33 puts RWF_UNCACHED" "${ucmd[@]}" --uncached=1
# Trims: Dataset Management of num_range ranges, fio's checks.
trims=(--ioengine=io_uring_cmd --filename=/dev/null)
refused "num_range past 256" "out of range 1-256" "${trims[@]}" --rw=trim --num_range=257
refused "num_range 0" "out of range 1-256" "${trims[@]}" --rw=trim --num_range=0
refused "trimwrite with ranges" "cannot be used with multiple ranges" "${trims[@]}" --rw=trimwrite --num_range=2
refused "randtrimwrite with ranges" "cannot be used with multiple ranges" "${trims[@]}" --rw=randtrimwrite --num_range=8
refused "a command past 4 GiB" "at most 4 GiB per command" "${trims[@]}" --rw=trim --num_range=256 --bs=32m --size=64m
refused "trims with zonemode=zbd" "fio's trims reset zones" "${trims[@]}" --rw=trim --zonemode=zbd
refused "num_range for libaio" "num_range is an option of ioengine io_uring_cmd" --ioengine=libaio --filename="$LOOP" --rw=trim --num_range=2
refused "a trim on a loop device" "not an NVMe generic character device" "${trims[@]/\/dev\/null/$LOOP}" --rw=randtrim --num_range=8
refused "sg_write_mode word" "sg_write_mode" --ioengine=sg --filename=/dev/null --sg_write_mode=zeroes

# Targets neither engine drives: refused, and nothing is created.
for e in "io_uring_cmd|not an NVMe generic character device|NVME_IOCTL_ID|needs an NVMe generic character device" \
	 "sg|not a SCSI device|not a SCSI generic device|needs a SCSI generic device"; do
	IFS='|' read -r eng on_loop on_chr on_new <<<"$e"
	refused "$eng on a loop device" "$on_loop" --ioengine=$eng --filename="$LOOP" --rw=randread
	refused "$eng on a character device" "$on_chr" --ioengine=$eng --filename=/dev/null --rw=randread
	refused "$eng on a new file" "$on_new" --ioengine=$eng --filename="$TMP/new" --rw=write
	check "$eng made no file" [ ! -e "$TMP/new" ]
done

# agree ENGINE DEV: a 4 MiB random read, iodig and fio count the same I/Os.
agree() {
	local args=(--name=t --ioengine=$1 --filename=$2 --rw=randread --bs=4k
		    --size=4m --output-format=json)
	fio "${args[@]}" 2>/dev/null | sed -n '/^{/,$p' >"$TMP/fio.json"
	"$IODIG" run --no-probes --no-save "${args[@]}" >"$TMP/iodig.json" 2>"$TMP/err" ||
		fail "iodig $1 on $2: $(tail -1 "$TMP/err")"
	check "$1 on $2: 1024 reads as fio" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/iodig.json")" = 1024 \
		-a "$(jqr '.jobs[0].read.total_ios' "$TMP/fio.json")" = 1024 ]
}
ng=$(ls /dev/ng*n* 2>/dev/null | head -1)
if [ -n "$ng" ]; then agree io_uring_cmd "$ng"; else echo "note: no /dev/ng*: no NVMe run here"; fi
sg=$(ls /dev/sg* 2>/dev/null | head -1)
if [ -n "$sg" ]; then agree sg "$sg"; else echo "note: no /dev/sg*: no SCSI run here"; fi
done_testing
