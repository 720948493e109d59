#!/bin/bash
# Option VALUES as fio 3.33 reads them (issue 14 points 1 and 7): each
# case of the table below is a job (and, where marked, a command line)
# given to both `fio --parse-only` and `iodig run --parse-only`; they must
# agree on accepting or refusing it.  Cases marked "misread" are values fio
# accepts with a meaning nobody wants (bs=1e6 is 1 byte, runtime=10sec 10
# microseconds): iodig refuses them saying what fio would do, and the test
# checks, live, that fio does accept them.  Cases with an rw mode also run
# for real on a 1 MiB tmpfs file with both tools: the bytes per I/O of each
# direction and the bytes moved must be the same.
# timeout: 600
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
fio --version | grep -q '^fio-3\.33' || skip "fio $(fio --version) is not fio 3.33"
cd "$TMP" || exit 1
F=$TMP/f
truncate -s 4m "$F"

# expect | cli | [global] lines | [t] lines | rw to run ('-': parse only)
# expect: same (fio's accept/refuse) or misread:REGEX (fio accepts, iodig
# refuses saying REGEX); cli: c to try the command line too.  Lines are
# separated by \n.  [t] starts with filename=$F and size=1m.
CASES=$(cat <<'EOF'
same | c | - | bs=4k | rw
same | c | - | bs=4K | read
same | c | - | bs=4kb | read
same | c | - | bs=4KB | read
same | c | - | bs=4ki | read
same | c | - | bs=4KiB | read
same | c | - | bs=4kib | read
same | c | - | bs=4kbytes | read
same | c | - | bs=4096b | read
same | c | - | bs=0x1000 | read
same | c | - | bs=0X1000 | read
same | c | - | bs=1m | read
same | c | - | bs=1M | read
same | c | - | bs=1MiB | read
same | c | - | bs=1MB | read
same | c | - | size=1g\nio_size=1m\nbs=64k | read
same | c | - | size=1G\nio_size=1m | -
same | c | - | size=1t | -
same | c | - | size=1T | -
same | c | - | size=1p | -
same | c | - | size=1P | -
same | c | - | size=99999999999999999999 | -
same | c | - | size=50% | -
same | c | - | size=512k | read
same | c | - | size=0x80000 | read
same | c | kb_base=1000 | bs=4k | read
same | c | kb_base=1000 | bs=4KiB | read
same | c | kb_base=1000 | bs=4000 | read
same | c | - | kb_base=1000\nbs=4k | read
same | c | - | bs=4k-8k,16k | rw
same | c | - | bs=4k-16k | rw
same | c | - | bs=4k:16k | rw
same | c | - | bs=4k,16k | rw
same | c | - | bs=4k,8k-16k | rw
same | c | - | bs=,16k | rw
same | c | - | bs=4k, | rw
same | c | - | bs=8k,4k,2k | rw
same | c | - | bs=0 | -
same | c | - | bs= | -
same | - | - | bs | -
same | c | - | bs=4kx | read
same | c | - | bsrange=4k-8k | -
same | c | - | bsrange=4k:8k | -
same | c | - | bsrange=8k-4k | -
same | c | - | bsrange=4k-8k,16k-32k | -
same | c | - | bsrange=4kx-8k | -
same | c | - | bsrange=4k | -
same | c | - | bssplit=4k/50:8k/50 | -
same | c | - | bssplit=4k/50:8k/50,16k/100 | -
same | c | - | bssplit=4k/50:8k/50:x | -
same | c | - | iodepth=4 | -
same | c | - | iodepth=1k | -
same | c | - | iodepth=0x10 | -
same | c | - | iodepth=4, | -
same | c | - | iodepth=0 | -
same | c | - | iodepth=x | -
same | c | - | rwmixread=0x32 | -
same | c | - | rwmixread=101 | -
same | c | - | rwmixread=50 | -
same | c | - | rwmixwrite=30 | -
same | c | - | numjobs=1 | -
same | c | - | nrfiles=2 | -
same | c | - | direct=1 | -
same | c | - | direct=0 | -
same | c | - | direct=0x1 | -
same | c | - | direct=2 | -
same | c | - | direct=true | -
same | c | - | direct=yes | -
same | c | - | direct=on | -
same | c | - | direct=false | -
same | c | - | buffered=no | -
same | - | - | direct | -
same | c | - | direct= | -
same | - | - | buffered | -
same | - | - | time_based | -
same | c | - | time_based=1 | -
same | c | - | time_based=0 | -
same | c | - | time_based=2 | -
same | c | - | time_based=true | -
same | c | - | group_reporting=yes | -
same | - | - | norandommap | -
same | c | - | norandommap=0 | -
same | - | - | thread | -
same | c | - | randrepeat=1 | -
same | c | - | randrepeat=yes | -
same | c | - | runtime=10 | -
same | c | - | runtime=10s | -
same | c | - | runtime=10S | -
same | c | - | runtime=1m | -
same | c | - | runtime=1h | -
same | c | - | runtime=1d | -
same | c | - | runtime=500ms | -
same | c | - | runtime=500msec | -
same | c | - | runtime=500us | -
same | c | - | runtime=500usec | -
same | c | - | runtime=x | -
same | c | - | runtime= | -
same | c | - | ramp_time=2s | -
same | c | - | startdelay=1h | -
same | c | - | startdelay=1-2 | -
same | c | - | thinktime=1ms | -
same | c | - | rate=1m | -
same | c | - | rate=1m,2m | -
same | c | - | rate=1m,2m,3m | -
same | c | - | rate_iops=100 | -
same | c | - | rate_iops=100,200 | -
same | c | - | rate=1m:2m | -
same | c | - | rate=1m-2m | -
same | c | - | rate=1m, | -
same | c | - | rate=,2m | -
same | c | - | rate_iops=100:200 | -
same | c | - | rate_iops=1k | -
same | c | - | max_latency=10ms,20ms | -
same | c | - | max_latency=10ms:20ms | -
same | c | - | blockalign=4k | -
same | c | - | filesize=4k, | -
same | c | - | bwavgtime=400, | -
same | c | - | latency_target=10ms | -
same | c | - | zero_buffers=true | -
same | c | - | zero_buffers=2 | -
same | - | - | zero_buffers | -
same | - | - | scramble_buffers | -
same | c | - | scramble_buffers=0 | -
same | c | - | gtod_reduce=yes | -
same | - | - | gtod_reduce | -
same | c | - | gtod_reduce=1 | -
same | c | - | disable_lat=true | -
same | - | - | disable_lat | -
same | c | - | serialize_overlap=yes | -
same | - | - | ioengine=libaio\nnowait | -
same | c | - | ioengine=libaio\nnowait=1 | -
same | - | - | ioengine=io_uring\nfixedbufs | -
same | c | - | ioengine=io_uring\nfixedbufs=2 | -
same | c | - | ioengine=io_uring\nsqthread_poll=yes | -
same | c | - | rw=read | read
same | c | - | rw=randread | -
same | c | - | rw=READ | -
same | c | - | rw=Read | -
same | c | - | rw=randreadxx | -
same | c | - | rw=sideways | -
same | c | - | rw=read:8k | read
same | c | - | rw=randread:8 | -
same | c | - | readwrite=write | write
same | c | - | verify=md5 | -
same | c | - | verify=MD5 | -
same | c | - | ioengine=psync | -
same | c | - | ioengine=sync | -
same | c | - | offset=0 | -
same | c | - | offset=1% | -
same | c | - | offset=512k | read
same | c | - | offset=50%, | read
same | c | - | size=50% | read
same | c | - | size=100% | read
same | c | - | offset_increment=10% | -
same | c | - | offset=x% | -
same | c | - | size=0 | -
same | - | - | bs =8k | read
same | - | - | bs=  8192 | read
same | - | - | rw= read | -
same | - | - | verify= md5 | -
same | - | - | runtime= 2 | -
same | - | - | direct= 1 | -
same | - | - | iodepth= 4 | -
same | - | - | bs=8k  | read
same | - | - | bs=8k ; a comment | read
same | - | - | bs=8k # a comment | read
same | - | - | bs=8k;comment | read
same | - | - | bs=8k\t# tab | read
same | - | - | bs=8k\nbs=16k | read
same | c | bs=16k | bs=8k | read
same | c | bs=16k | - | read
same | - | bs=16k\nbs=32k | - | read
same | c | - | size="1m" | -
same | c | - | size='1m' | -
same | c | - | size=(1m*2) | -
same | c | - | filename_format=f.$jobnum | -
same | c | - | fsync=0x4 | -
same | c | - | nice=-5 | -
same | c | - | prio=0 | -
same | c | - | verify_interval=0 | -
same | c | - | verify_interval=79 | -
same | c | - | verify_interval=80 | -
same | c | - | verify_offset=39 | -
same | c | - | verify_offset=40 | -
misread:fio 3.33 reads it as 1, ignoring 'e6' | c | - | bs=1e6 | -
misread:fio 3.33 reads it as 1, ignoring 'e6' | c | - | size=1e6 | -
misread:fio 3.33 reads it as 4, ignoring 'x' | c | - | bs=4x | -
misread:fio 3.33 reads it as 1, ignoring '.5k' | c | - | size=1.5k | -
misread:fio 3.33 reads it as 4, ignoring ' k' | - | - | bs=4 k | -
misread:fio 3.33 reads it as 16, ignoring 'k' | c | - | offset=0x10k | -
misread:fio 3.33 reads it as 10 microseconds | c | - | runtime=10sec | -
misread:fio 3.33 reads it as 1 microseconds | c | - | runtime=1min | -
misread:fio 3.33 reads it as 16 microseconds | c | - | runtime=10x | -
misread:fio 3.33 reads it as 1 \(in the option's unit\) | c | - | runtime=1.5 | -
misread:fio 3.33 reads it as 1 microseconds | c | - | thinktime=1x | -
misread:holds several values | c | - | size=1m-2m | -
misread:holds several values | c | - | size=1m,2m | -
misread:holds several values | c | - | iodepth=1,2 | -
misread:holds several values | c | - | iodepth=4-8 | -
misread:holds several values | c | - | runtime=10-20 | -
misread:holds several values | c | - | direct=0,1 | -
misread:is negative | c | - | iodepth=-1 | -
misread:is negative | c | - | direct=-1 | -
misread:is not 0 or 1 | c | - | direct=1x | -
misread:is not a whole number \(fio 3.33 reads it as 5\) | c | - | rwmixread=5.5 | -
misread:is a percentage | c | - | rwmixread=50% | -
misread:more than three | c | - | bs=4k,8k,16k,32k | -
misread:fio 3.33 reads it as 16, ignoring 'E' | c | - | size=16E | -
misread:is negative | c | - | bs=-4k | -
misread:is negative | c | - | bs=4k,-8k | -
misread:out of range 1-1024 | c | - | numjobs=0 | -
misread:starts with a blank: fio 3.33 then ignores its unit \(reads it as 8\) | - | - | bs= 8k | -
misread:starts with a blank: fio 3.33 then ignores its unit | - | - | bs = 8k | -
misread:starts with a blank: fio 3.33 then ignores its unit \(reads it as 2\) | - | - | runtime= 2m | -
misread:starts with a blank | c | - | bsrange= 4k-8k | -
misread:starts with a blank | - | - | size= 1m | -
misread:is not a range MIN-MAX | c | - | bsrange=4k-8k,16k | -
misread:is a percentage | c | - | rate=50% | -
same | c | - | size=150% | -
misread:is a percentage | c | - | bs=10% | -
misread:'none' takes nothing after a ':' \(fio 3.33 ignores ':x'\) | c | - | fallocate=none:x | -
misread:takes nothing after a ':' | c | - | exit_what=group:x | -
misread:is not a size to skip | c | - | rw=read:x | -
misread:is negative | c | - | rate=-1m | -
misread:fio 3.33 reads it as 10 microseconds | c | - | max_latency=10sec | -
misread:fio 3.33 reads it as 16 microseconds | c | - | latency_target=0x10 | -
misread:is not an engine iodig has | - | - | ioengine=PSYNC | -
EOF
)

# verdict KIND ARGS...: runs fio and iodig --parse-only, sets FRC IRC and
# the first line of each one's complaint
verdict() {
	local dir=$TMP/run
	rm -rf "$dir" && mkdir "$dir"
	(cd "$dir" && timeout 20 fio --parse-only "$@" >/dev/null 2>"$TMP/fio.err")
	FRC=$?
	(cd "$dir" && timeout 20 "$IODIG" run --parse-only "$@" >/dev/null 2>"$TMP/iodig.err")
	IRC=$?
	FMSG=$(grep -v '^\s*$' "$TMP/fio.err" | head -1)
	IMSG=$(sed -n 's/^iodig: //p' "$TMP/iodig.err" | head -1)
}

# judge WHAT EXPECT: the verdict against the case's expectation
judge() {
	local what=$1 expect=$2
	if [ "$IRC" -ge 124 ] || { [ "$IRC" -ne 0 ] && [ -z "$IMSG" ]; }; then
		fail "$what: iodig exit $IRC without a message"
	elif [ "$expect" = same ]; then
		if [ $((FRC != 0)) -eq $((IRC != 0)) ]; then
			echo "ok: $what: both $([ "$FRC" -eq 0 ] && echo accept || echo refuse)"
		elif [ "$FRC" -eq 0 ]; then
			fail "$what: fio accepts it, iodig refuses: $IMSG"
		else
			fail "$what: fio refuses it ($FMSG), iodig accepts it"
		fi
	else
		local pat=${expect#misread:}
		if [ "$FRC" -ne 0 ]; then
			fail "$what: marked misread but fio refuses it ($FMSG)"
		elif [ "$IRC" -eq 0 ]; then
			fail "$what: fio misreads it, iodig accepts it"
		else
			check "$what: $IMSG" grep -qE -- "$pat" <<<"$IMSG"
		fi
	fi
}

# bytes per I/O of reads and writes, and bytes moved, of a JSON report
# (not moved for rw=rw: where a mixed job stops depends on its random mix)
shape() {
	jq -r '.jobs[0] | [(if .read.total_ios > 0 then .read.io_bytes / .read.total_ios else 0 end),
		(if .write.total_ios > 0 then .write.io_bytes / .write.total_ios else 0 end),
		(if $rw == "rw" then 0 else .read.io_bytes + .write.io_bytes end)]
		| map(floor) | join(" ")' --arg rw "$2" "$1" 2>/dev/null
}

same_shape() { [ -n "$1" ] && [ "$1" = "$2" ]; }
trim() { local s=${1# }; printf '%s' "${s% }"; }

cases=0 runs=0
while IFS='|' read -r expect cli global job rw; do
	expect=$(trim "$expect") cli=$(trim "$cli") rw=$(trim "$rw")
	global=$(trim "$global") job=$(trim "$job")
	[ -n "$expect" ] || continue
	cases=$((cases + 1))
	g=""; [ "$global" != - ] && g=$(printf '%b' "$global")
	j=""; [ "$job" != - ] && j=$(printf '%b' "$job")
	printf '[global]\n%s\n[t]\nfilename=%s\nsize=1m\n%s\n' "$g" "$F" "$j" >"$TMP/case.fio"
	verdict "$TMP/case.fio"
	judge "job file: ${global:+[global] $global; }$job" "$expect"
	if [ "$cli" = c ]; then
		args=()
		while IFS= read -r l; do [ -n "$l" ] && args+=("--$l"); done <<<"$g"
		args+=(--name=t "--filename=$F" --size=1m)
		while IFS= read -r l; do [ -n "$l" ] && args+=("--$l"); done <<<"$j"
		verdict "${args[@]}"
		judge "command line: ${args[*]}" "$expect"
	fi
	if [ "$rw" != - ] && [ "$FRC" -eq 0 ] && [ "$IRC" -eq 0 ]; then
		runs=$((runs + 1))
		printf 'rw=%s\nioengine=psync\n' "$rw" >>"$TMP/case.fio"
		fio --output-format=json "$TMP/case.fio" >"$TMP/fio.json" 2>"$TMP/fio.err"
		"$IODIG" run --no-probes --no-save --output-format=json "$TMP/case.fio" \
			>"$TMP/iodig.json" 2>"$TMP/iodig.err"
		want=$(shape "$TMP/fio.json" "$rw") got=$(shape "$TMP/iodig.json" "$rw")
		check "run $job ($rw): bytes per read, per write, moved: fio '$want', iodig '$got'" \
			same_shape "$want" "$got"
	fi
done <<<"$CASES"
echo "$cases value cases, $runs run with both tools"
check "the table has at least 80 cases" [ "$cases" -ge 80 ]
done_testing
