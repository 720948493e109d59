# ioengine=libpmem does what fio 3.33's does on a tmpfs file made to pass for persistent memory (PMEM_IS_PMEM_FORCE=1): the same I/Os and bytes for a sequential write and read, the file created at the job's size; without the override both refuse the file as not persistent memory.
source tests/host/lib.sh
command -v fio >/dev/null || skip "fio not installed"
fio --enghelp 2>/dev/null | grep -qx '[[:space:]]*libpmem' || skip "this fio has no libpmem engine"

F=$TMP/pm
# run TOOL ARGS...: TOOL (fio or iodig) runs a libpmem job on $F; leaves
# $TMP/TOOL.json and returns TOOL's exit status.
run() {
	local tool=$1; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	(cd "$TMP" && "${cmd[@]}" --output-format=json --name=p --ioengine=libpmem \
		--filename="$F" --size=1m --bs=4k "$@" >"$TMP/$tool.out" 2>"$TMP/$tool.err")
	local rc=$?
	sed -n '/^{/,$p' "$TMP/$tool.out" >"$TMP/$tool.json"
	return $rc
}
ios() { jqr ".jobs[0].$2 | \"\(.total_ios) \(.io_bytes)\"" "$TMP/$1.json"; }

export PMEM_IS_PMEM_FORCE=1
for rw in write read; do
	for tool in fio iodig; do
		rm -f "$F"
		run "$tool" --rw=$rw || fail "$tool rw=$rw: exit $? ($(tail -2 "$TMP/$tool.err"))"
		size=$(stat -c %s "$F" 2>/dev/null || echo none)
		check "$tool rw=$rw: the file is created at the job's size ($size)" [ "$size" = 1048576 ]
	done
	check "rw=$rw: iodig's I/Os and bytes are fio's ($(ios fio $rw); iodig $(ios iodig $rw))" \
		[ "$(ios fio $rw)" = "$(ios iodig $rw)" ]
	check "rw=$rw: 256 I/Os of 1 MiB" [ "$(ios iodig $rw)" = "256 1048576" ]
done

unset PMEM_IS_PMEM_FORCE
rm -f "$F"
run fio --rw=write; ferr=$(jqr '.jobs[0].error' "$TMP/fio.json")
check "fio refuses a file that is not persistent memory (error $ferr)" [ "$ferr" = 95 ]
run iodig --rw=write
check "iodig refuses it too, saying why" grep -q "not persistent memory" "$TMP/iodig.err"
done_testing
