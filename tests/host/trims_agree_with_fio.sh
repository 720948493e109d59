# iodig and fio 3.33 trim alike: for rw=trim, randtrim, trimwrite and randtrimwrite on a loop device the same trim and write counts and bytes, the same I/Os in the same order (write_iolog), the same discard requests at the block layer (block_rq_issue, read through a tracefs of the test's own), which iodig's block family counts as discards, not writes; on a file a trim punches a hole (st_blocks falls).
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
command -v jq >/dev/null || skip "jq not installed"
make_loop 64 || skip "cannot create a loop device"
[ "$(cat /sys/block/"${LOOP#/dev/}"/queue/discard_max_bytes)" != 0 ] ||
	skip "$LOOP takes no discards"

own_tracefs iodig-trims
[ -d "$INST/events/block/block_rq_issue" ] || skip "no block_rq_issue tracepoint"
dev_filter "$LOOP" >"$INST/events/block/block_rq_issue/filter"

# traced NAME CMD...: runs CMD with block_rq_issue on; the discards'
# "sector+sectors", in issue order, into $TMP/NAME.discards
traced() {
	local name=$1; shift
	echo >"$INST/trace"
	echo 1 >"$INST/events/block/block_rq_issue/enable"
	"$@"
	local rc=$?
	echo 0 >"$INST/events/block/block_rq_issue/enable"
	# "259,0 DS 4096 () 88 + 8 [comm]": the rwbs starts with D for a discard
	awk '$0 !~ /^#/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+,[0-9]+$/) {
		if ($(i + 1) ~ /^D/ && $(i + 1) !~ /^DE/) {
			for (k = i + 2; k < NF; k++) if ($(k + 1) == "+") { print $k "+" $(k + 2); break }
		}
		break } }' "$INST/trace" >"$TMP/$name.discards"
	return $rc
}

# the I/Os of a write_iolog, without their times: "action offset length"
iolog_ios() { awk '$3 ~ /^(read|write|trim)$/ { print $3, $4, $5 }' "$1"; }

for mode in trim randtrim trimwrite randtrimwrite; do
	args=(--name=t --filename="$LOOP" --rw=$mode --bs=4k --size=1m --ioengine=psync)
	traced fio-$mode fio --output-format=json --write_iolog="$TMP/fio-$mode.log" \
		"${args[@]}" >"$TMP/fio-$mode.out" 2>/dev/null ||
		{ fail "$mode: fio failed"; continue; }
	sed -n '/^{/,$p' "$TMP/fio-$mode.out" >"$TMP/fio-$mode.json"
	traced iodig-$mode "$IODIG" run --no-save --probes=block --output-format=json \
		--write_iolog="$TMP/iodig-$mode.log" "${args[@]}" >"$TMP/iodig-$mode.json" \
		2>"$TMP/iodig-$mode.err" ||
		{ fail "$mode: iodig exited ($(cat "$TMP/iodig-$mode.err"))"; continue; }
	for d in trim write; do
		for f in total_ios io_bytes; do
			want=$(jqr ".jobs[0].$d.$f" "$TMP/fio-$mode.json")
			got=$(jqr ".jobs[0].$d.$f" "$TMP/iodig-$mode.json")
			check "$mode: $d $f as fio's ($want, got $got)" [ "$got" = "$want" ]
		done
	done
	trims=$(jqr '.jobs[0].trim.total_ios' "$TMP/iodig-$mode.json")
	check "$mode: 256 trims of 4 KiB (got $trims)" [ "$trims" = 256 ]
	check "$mode: the same I/Os in the same order as fio's write_iolog" \
		cmp -s <(iolog_ios "$TMP/fio-$mode.log") <(iolog_ios "$TMP/iodig-$mode.log")
	n=$(wc -l <"$TMP/iodig-$mode.discards")
	check "$mode: block_rq_issue saw 256 discards of iodig's (got $n)" [ "$n" = 256 ]
	check "$mode: the same discard sectors, in the same order, as fio's" \
		cmp -s "$TMP/fio-$mode.discards" "$TMP/iodig-$mode.discards"
	got=$(jqr '.iodig.kernel.block.requests.discard' "$TMP/iodig-$mode.json")
	check "$mode: the block family counts 256 discards (got $got)" [ "$got" = 256 ]
	got=$(jqr '.iodig.kernel.block.bytes.discard' "$TMP/iodig-$mode.json")
	check "$mode: of 1 MiB (got $got)" [ "$got" = 1048576 ]
	if [ "$mode" = trim ] || [ "$mode" = randtrim ]; then
		got=$(jqr '.iodig.kernel.block.requests.write' "$TMP/iodig-$mode.json")
		check "$mode: no discard counted as a write (got $got writes)" [ "$got" = 0 ]
	fi
done

# Async engines trim synchronously in their queue path, as fio's do:
# every trim done, none with a submission latency.
for engine in libaio io_uring posixaio; do
	args=(--name=a --filename="$LOOP" --rw=randtrimwrite --bs=4k --size=512k
	      --ioengine=$engine --iodepth=8 --direct=1)
	"$IODIG" run --no-probes --output-format=json "${args[@]}" >"$TMP/a.json" 2>"$TMP/a.err" ||
		{ fail "$engine: iodig exited ($(cat "$TMP/a.err"))"; continue; }
	fio --output-format=json "${args[@]}" 2>/dev/null | sed -n '/^{/,$p' >"$TMP/af.json"
	for d in trim write; do
		want=$(jqr ".jobs[0].$d.total_ios" "$TMP/af.json")
		got=$(jqr ".jobs[0].$d.total_ios" "$TMP/a.json")
		check "$engine: 128 $d I/Os, as fio's ($want, got $got)" \
			[ "$got" = "$want" -a "$got" = 128 ]
	done
	got=$(jqr '.jobs[0].trim.slat_ns.N' "$TMP/a.json")
	check "$engine: trims have no submission latency (N=$got)" [ "$got" = 0 ]
done

# Block sizes that vary: each write takes its trim's offset and length,
# drawn as fio draws them (the null engine's per-I/O bandwidth log, with
# offsets: direction, size and offset of every I/O, in order).
for mode in trimwrite randtrimwrite; do
	cat >"$TMP/$mode.fio" <<-EOF
	[global]
	filesize=1M
	ioengine=null
	rw=$mode
	log_offset=1
	per_job_logs=0
	write_bw_log
	[bsrange]
	bsrange=512-4k
	[bssplit]
	bssplit=512/25:1k/:2k/:4k/
	EOF
	for tool in fio iodig; do
		mkdir -p "$TMP/$tool-$mode" && cd "$TMP/$tool-$mode" || continue
		if [ $tool = fio ]; then fio "../$mode.fio" >/dev/null 2>&1
		else "$IODIG" run --no-save --no-probes "../$mode.fio" >/dev/null 2>&1; fi ||
			fail "$mode: $tool failed"
		cd - >/dev/null
	done
	for job in bsrange bssplit; do
		n=$(grep -c ', 2, ' "$TMP/iodig-$mode/${job}_bw.log")
		check "$mode $job: the trims, writes, sizes and offsets of fio's ($n trims)" \
			cmp -s <(cut -d, -f3-5 "$TMP/fio-$mode/${job}_bw.log") \
			       <(cut -d, -f3-5 "$TMP/iodig-$mode/${job}_bw.log")
	done
done

# A file: trims punch holes into the blocks a write put there.
f=$TMP/punched
dd if=/dev/urandom of="$f" bs=1M count=4 status=none
before=$(stat -c %b "$f")
"$IODIG" run --no-probes --no-save --output-format=json --name=p --filename="$f" \
	--rw=randtrim --bs=64k --size=4m >"$TMP/p.json" 2>"$TMP/p.err" ||
	fail "file trim: iodig exited ($(cat "$TMP/p.err"))"
after=$(stat -c %b "$f")
check "file: 64 trims (got $(jqr '.jobs[0].trim.total_ios' "$TMP/p.json"))" \
	[ "$(jqr '.jobs[0].trim.total_ios' "$TMP/p.json")" = 64 ]
check "file: st_blocks fell from $before to $after" [ "$after" -lt "$before" ]
check "file: its size is kept" [ "$(stat -c %s "$f")" = 4194304 ]
done_testing
