# Bounded resources: numjobs=64 with every probe family keeps iodig's peak RSS under docs/limits.md's limit (64 MiB) and its BPF map memory under 32 MiB; 63 more workers cost the supervisor under 16 MiB, and the maps sized from the job grow with them by under 4 MiB. timeout: 120
source tests/host/lib.sh
need_root
[ -x /usr/bin/time ] || skip "/usr/bin/time (GNU time) not installed (make deps)"
REPO=$PWD
cd "$TMP" || exit 1
RSS_LIMIT_KB=$((64 * 1024))     # docs/limits.md
MAP_LIMIT_KB=$((32 * 1024))
GROWTH_LIMIT_KB=$((16 * 1024))
MAP_GROWTH_LIMIT_KB=$((4 * 1024))

# peak NUMJOBS: sets RSS_KB (GNU time: the largest of iodig and its workers)
# and MAP_KB (memlock of the BPF maps iodig holds, the most seen while it runs)
peak() {
	/usr/bin/time -v -o "$TMP/time" "$IODIG" run --no-progress --output-format=json \
		--output="$TMP/out.json" --name=m --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=8 --numjobs="$1" --group_reporting --runtime=2 --time_based \
		--size=64m --target=scratch --scratch-size=64m >/dev/null 2>"$TMP/err" &
	local tpid=$! pid= i kb
	for i in $(seq 100); do pid=$(pgrep -P "$tpid" -x iodig) && break; sleep 0.05; done
	# the most the maps held while it ran: they are made while the
	# workers wait to start, and 64 busy workers leave a shell polling
	# beside them few turns in the 2 s run
	MAP_KB=0
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
		kb=$(grep -h -s '^memlock:' /proc/"$pid"/fdinfo/* | awk '{s += $2} END {print int(s / 1024)}')
		[ "${kb:-0}" -gt "$MAP_KB" ] && MAP_KB=$kb
		sleep 0.05
	done
	wait "$tpid"
	RC=$?
	RSS_KB=$(awk -F': ' '/Maximum resident/ {print $2}' "$TMP/time")
	echo "numjobs=$1: exit $RC, peak RSS ${RSS_KB} kB, BPF maps ${MAP_KB} kB"
}

peak 64
rss64=$RSS_KB
check "numjobs=64: exit 0 (got $RC): $(cat "$TMP/err")" [ "$RC" -eq 0 ]
check "numjobs=64: 64 workers reported" [ "$(jqr '.jobs[0]["job options"].numjobs' "$TMP/out.json")" = 64 ]
check "numjobs=64: I/O done" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/out.json")" -gt 0 ]
check "numjobs=64: probes loaded" jq -e '[.iodig.kernel.probes[] | select(.state == "active")] | length >= 3' "$TMP/out.json" >/dev/null
check "numjobs=64: peak RSS ${rss64} kB < ${RSS_LIMIT_KB} kB" [ "${rss64:-0}" -gt 0 -a "${rss64:-0}" -lt "$RSS_LIMIT_KB" ]
check "numjobs=64: BPF map memory ${MAP_KB} kB < ${MAP_LIMIT_KB} kB" [ "${MAP_KB:-0}" -gt 0 -a "${MAP_KB:-0}" -lt "$MAP_LIMIT_KB" ]
map64=$MAP_KB
peak 1
check "numjobs=1: exit 0" [ "$RC" -eq 0 ]
check "64 workers cost $((rss64 - RSS_KB)) kB more RSS than one (< ${GROWTH_LIMIT_KB} kB)" \
	[ $((rss64 - RSS_KB)) -lt "$GROWTH_LIMIT_KB" ]
# Thread slots and io thread hashes follow the workers (docs/limits.md).
check "BPF maps sized from the job: numjobs=1 ${MAP_KB} kB <= numjobs=64 ${map64} kB" \
	[ "${MAP_KB:-0}" -gt 0 -a "$MAP_KB" -le "$map64" ]
check "a 2-second numjobs=1 run keeps its maps under 10 MiB (${MAP_KB} kB): sampling's keys follow the runtime" \
	[ "${MAP_KB:-0}" -lt $((10 * 1024)) ]
check "63 more workers add $((map64 - MAP_KB)) kB of BPF maps (< ${MAP_GROWTH_LIMIT_KB} kB)" \
	[ $((map64 - MAP_KB)) -lt "$MAP_GROWTH_LIMIT_KB" ]
done_testing
