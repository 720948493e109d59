# read_iolog's pace at depth against fio 3.33: a log fio wrote of 2048 4k random reads (libaio, iodepth=16, direct=1) replayed by both tools with libaio and io_uring at iodepth=16, direct=1, on a loop device of the test's own; the block layer's issue and complete tracepoints give the number of requests in flight at each issue: the same I/O count and maximum, and a median and mean depth near fio's (fio spins through the log's gaps of a few microseconds with its queue full; sleeping through each gap leaves one or two in flight).
source tests/host/lib.sh
fio_loop_test 64
own_tracefs iolog-depth
RUN=(--no-probes --no-save --no-progress --allow-destructive)
EVENTS=(block_rq_issue block_rq_complete)
for e in "${EVENTS[@]}"; do
	[ -d "$INST/events/block/$e" ] || skip "no $e tracepoint"
	dev_filter "$LOOP" >"$INST/events/block/$e/filter"
done
echo 8192 >"$INST/buffer_size_kb"

fio --name=w --filename="$LOOP" --rw=randread --bs=4k --size=8m --ioengine=libaio --iodepth=16 \
	--direct=1 --write_iolog="$TMP/log" >/dev/null 2>&1
check "fio logged 2048 reads" [ "$(grep -c ' read ' "$TMP/log")" = 2048 ]

# depths CMD...: CMD run with the tracepoints on; prints the requests
# issued, the most in flight, the median and ten times the mean in flight
# at an issue
depths() {
	local e
	settle "${LOOP#/dev/}"
	echo >"$INST/trace"
	for e in "${EVENTS[@]}"; do echo 1 >"$INST/events/block/$e/enable"; done
	"$@" >/dev/null 2>&1
	for e in "${EVENTS[@]}"; do echo 0 >"$INST/events/block/$e/enable"; done
	awk '/block_rq_issue:/ { d++; print d } /block_rq_complete:/ { if (d > 0) d-- }' \
		"$INST/trace" | sort -n | awk '{ a[NR] = $1; s += $1 }
		END { if (!NR) { print "0 0 0 0"; exit }
		      printf "%d %d %d %d\n", NR, a[NR], a[int((NR + 1) / 2)], s * 10 / NR }'
}
# mid N...: the middle one of an odd number of numbers
mid() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

for e in libaio io_uring; do
	job=(--name=r --read_iolog="$TMP/log" --ioengine=$e --iodepth=16 --direct=1)
	fn=() fmax=0 fmed=() fmean=() in=() imax=0 imed=() imean=()
	# five runs each, taken in turns: the machine's load moves both alike
	for run in 1 2 3 4 5; do
		read -r n max med mean < <(depths fio "${job[@]}")
		fn+=("$n") fmed+=("$med") fmean+=("$mean"); [ "$max" -gt "$fmax" ] && fmax=$max
		read -r n max med mean < <(depths "$IODIG" run "${RUN[@]}" "${job[@]}")
		in+=("$n") imed+=("$med") imean+=("$mean"); [ "$max" -gt "$imax" ] && imax=$max
	done
	check "$e: the device saw the log's 2048 reads from each run (iodig ${in[*]}, fio ${fn[*]})" \
		[ "$(printf '%s\n' "${in[@]}" "${fn[@]}" | sort -u)" = 2048 ]
	check "$e: at most as many in flight as fio's ($imax vs $fmax)" [ "$imax" = "$fmax" ]
	im=$(mid "${imed[@]}") fm=$(mid "${fmed[@]}")
	check "$e: median in flight at least half fio's (iodig ${imed[*]}, fio ${fmed[*]})" \
		[ $((im * 2)) -ge "$fm" ]
	im=$(mid "${imean[@]}") fm=$(mid "${fmean[@]}")
	check "$e: mean in flight at least 70% of fio's (x10: iodig ${imean[*]}, fio ${fmean[*]})" \
		[ $((im * 10)) -ge $((fm * 7)) ]
done
done_testing
