# ioengine=page_fault (fio's engine after 3.33, which 3.33 does not have): each I/O is a load or store on the job's anonymous mapping, so the job's I/Os and bytes are fio's for size= and bs=, and the faults family sees the first touch of every page as a user page fault, which the null engine's same job does not take.
source tests/host/lib.sh
need_root

# pf ARGS...: iodig runs a page_fault job; leaves $TMP/pf.json.
pf() {
	(cd "$TMP" && "$IODIG" run --no-save --output-format=json --name=pf \
		--ioengine=page_fault --size=8m --bs=4k "$@" >"$TMP/pf.json" 2>"$TMP/pf.err") ||
		fail "page_fault $*: exit $? ($(tail -2 "$TMP/pf.err"))"
}
field() { jqr "$1" "$TMP/pf.json"; }

pages=$((8 * 1024 * 1024 / $(getconf PAGESIZE)))
# With THP always, the kernel may map 2 MiB per fault.
per_fault=1
grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && per_fault=512

pf --rw=write
check "write: 2048 I/Os of 8 MiB ($(field '.jobs[0].write | "\(.total_ios) \(.io_bytes)"'))" \
	[ "$(field '.jobs[0].write | "\(.total_ios) \(.io_bytes)"')" = "2048 8388608" ]
mech=$(field '.iodig.kernel.faults.mechanism // "none"')
if [ "$mech" = none ] || [ "$mech" = null ]; then
	echo "note: faults family not loaded here; fault checks not run"
else
	writes=$(field '.iodig.kernel.faults.write')
	check "write: the faults family sees a write fault per page ($writes for $pages pages)" \
		[ "$writes" -ge $((pages / per_fault)) ]
	minf=$(field '.iodig.kernel.faults.workload_minf')
	check "write: the worker's minor faults cover the pages too ($minf)" \
		[ "$minf" -ge $((pages / per_fault)) ]
	(cd "$TMP" && "$IODIG" run --no-save --output-format=json --name=n --ioengine=null \
		--size=8m --bs=4k --rw=write >"$TMP/null.json" 2>/dev/null) || fail "null run"
	nulls=$(jqr '.iodig.kernel.faults.user_faults' "$TMP/null.json")
	check "null's same job takes far fewer faults ($nulls) than page_fault's ($writes)" \
		[ "$nulls" -lt $((writes / 4)) ]
fi

pf --rw=randrw --rwmixread=50
ios=$(field '[.jobs[0].read.total_ios, .jobs[0].write.total_ios] | add')
bytes=$(field '[.jobs[0].read.io_bytes, .jobs[0].write.io_bytes] | add')
check "randrw: 2048 I/Os, 8 MiB in all ($ios, $bytes)" [ "$ios $bytes" = "2048 8388608" ]
check "randrw: no errors" [ "$(field '.jobs[0].error')" = 0 ]

# fio refuses both: one region, mapped from 0
for bad in --offset=4k --nrfiles=2; do
	out=$(cd "$TMP" && "$IODIG" run --no-save --name=pf --ioengine=page_fault \
		--size=8m $bad 2>&1)
	key=${bad#--}
	check "page_fault $bad is refused naming the option ($out)" \
		grep -q -- "${key%%=*}=" <<<"$out"
done
done_testing
