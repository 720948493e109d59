# steadystate against fio 3.33 on a loop device of the test's own: a generous iops_slope criterion stops the time_based job long before its runtime in both, attained=1, with fio's JSON keys, a window of ss_dur samples whose bytes and I/Os agree with the block size, and fio's text line; an impossible criterion runs to the runtime with attained=0; under group_reporting the clones share one window and one report entry; lat_slope (fio after 3.33, which fio 3.33 cannot run) lists the window's mean clat as that fio does.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
need_root
make_loop 256 || skip "cannot make a loop device"
cd "$TMP" || exit 1

# run NAME TOOL ARGS...: TOOL's normal and JSON report of the job, split
# into NAME.json (the "{" to "}" lines) and NAME.txt (the rest)
run() {
	local name=$1 tool=$2
	shift 2
	if [ "$tool" = fio ]; then
		fio --output-format=normal,json "$@" >"$name.out" 2>"$name.err"
	else
		"$IODIG" run --no-probes --no-save --output-format=normal,json "$@" \
			>"$name.out" 2>"$name.err"
	fi
	sed -n '/^{$/,/^}$/p' "$name.out" >"$name.json"
	sed '/^{$/,/^}$/d' "$name.out" >"$name.txt"
}

JOB=(--name=ss --filename="$LOOP" --rw=randread --bs=4k --ioengine=psync --thread
     --time_based)
KEYS='.jobs[0].steadystate | [keys_unsorted[], (.data | keys_unsorted[])] | join(",")'
for tool in fio iodig; do
	run "$tool.a" $tool "${JOB[@]}" --runtime=30 --ss=iops_slope:30% --ss_dur=3 --ss_ramp=1
	run "$tool.b" $tool "${JOB[@]}" --runtime=4 --ss=iops_slope:0% --ss_dur=2
	run "$tool.g" $tool "${JOB[@]}" --runtime=30 --numjobs=2 --group_reporting \
		--ss=bw_slope:30% --ss_dur=2
done

for tool in fio iodig; do
	a=$tool.a.json
	ms=$(jqr '.jobs[0].job_runtime' "$a")
	check "$tool (a): stopped before its 30 s runtime (${ms} ms)" [ "$ms" -lt 20000 ]
	check "$tool (a): attained=1" [ "$(jqr '.jobs[0].steadystate.attained' "$a")" = 1 ]
	check "$tool (a): ss and duration" [ "$(jqr '.jobs[0].steadystate | "\(.ss) \(.duration)"' "$a")" = "iops_slope:30.000000% 3" ]
	check "$tool (a): a window of 3 samples" \
		[ "$(jqr '.jobs[0].steadystate.data | "\(.iops | length) \(.bw | length)"' "$a")" = "3 3" ]
	# each sample's bytes over its I/Os is the block size
	per=$(jqr '[.jobs[0].steadystate.data | range(0; 3) as $i |
		(.bw[$i] / .iops[$i])] | map(select(. > 4055 and . < 4137)) | length' "$a")
	check "$tool (a): every sample moves 4 KiB per I/O" [ "$per" = 3 ]
	check "$tool (a): the text line" grep -Eq \
		'^  steadystate  : attained=yes, bw=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\), iops=[0-9.]+k?, iops slope=-?[0-9]+\.[0-9]{3}%$' \
		"$tool.a.txt"
	b=$tool.b.json
	ms=$(jqr '.jobs[0].job_runtime' "$b")
	check "$tool (b): an impossible criterion runs to the runtime (${ms} ms)" [ "$ms" -ge 3900 ]
	check "$tool (b): attained=0" [ "$(jqr '.jobs[0].steadystate.attained' "$b")" = 0 ]
	check "$tool (b): criterion in percent" matches "$(jqr '.jobs[0].steadystate.criterion' "$b")" '^-?[0-9]+\.[0-9]{6}%$'
	g=$tool.g.json
	check "$tool (g): one entry for both clones" [ "$(jqr '.jobs | length' "$g")" = 1 ]
	check "$tool (g): attained=1" [ "$(jqr '.jobs[0].steadystate.attained' "$g")" = 1 ]
	check "$tool (g): the bw slope line" grep -q '^  steadystate  : attained=yes, .*, bw slope=' "$tool.g.txt"
done
run iodig.l iodig "${JOB[@]}" --runtime=30 --ss=lat_slope:30% --ss_dur=3
check "iodig (l): lat_slope attained" [ "$(jqr '.jobs[0].steadystate | "\(.ss) \(.attained)"' iodig.l.json)" = "lat_slope:30.000000% 1" ]
check "iodig (l): lat_mean and 3 lat_ns after iops_mean" [ "$(jqr '.jobs[0].steadystate.data |
	"\(keys_unsorted | join(",")) \(.lat_ns | length) \(.lat_mean > 0)"' iodig.l.json)" = \
	"bw_mean,iops_mean,lat_mean,lat_ns,iops,bw 3 true" ]
check "iodig (l): the text line names lat" grep -Eq \
	'^  steadystate  : attained=yes, .*, iops=[0-9.]+k?, lat=[0-9.]+k?nsec, lat slope=-?[0-9.]+%$' iodig.l.txt
check "the same steadystate keys as fio ($(jqr "$KEYS" fio.a.json))" \
	[ "$(jqr "$KEYS" fio.a.json)" = "$(jqr "$KEYS" iodig.a.json)" ]
check "the same keys without attaining" [ "$(jqr "$KEYS" fio.b.json)" = "$(jqr "$KEYS" iodig.b.json)" ]
done_testing
