# The kernel's BTF and symbols are read once per run, not once per family or repeat: with the default probes and two repeats, /sys/kernel/btf/vmlinux and /proc/kallsyms are opened once each (strace; kallsyms by the prefetch child, which keeps the static symbols in the boot's cache file), every tp_btf family is active and both repeats have their figures, sched's with function names; the next run takes the symbols from that file and opens /proc/kallsyms not at all, still naming sched's functions; with IODIG_BTF the custom file serves CO-RE and the running kernel's BTF still serves tp_btf. timeout: 300
source tests/host/lib.sh
need_root
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux (kernel without BTF)"
command -v strace >/dev/null || skip "no strace (make deps)"
cd "$TMP" || exit 1
head -c 1M /dev/urandom >"$TMP/f"

# traced_run NAME [ENV=VALUE...]: a 2-repeat run under strace
traced_run() {
	local name=$1; shift
	env "$@" strace -f -qq -e trace=openat -o "$TMP/$name.strace" "$IODIG" run --no-progress \
		--no-save --output-format=json --repeat=2 --name=b --filename="$TMP/f" \
		--rw=read --bs=4k --size=256k >"$TMP/$name.json" 2>"$TMP/$name.err"
	RC=$?
	check "$name: exit 0 (got $RC): $(tr '\n' ' ' <"$TMP/$name.err")" [ "$RC" -eq 0 ]
}
opens() { grep -c "\"$2\"" "$1"; }
# every family the default set loads with tp_btf on this kernel
tp_btf_families() {
	"$IODIG" probe | awk '$2 == "tp_btf" && $3 == "active" && !/opt-in/ {print $1}'
}

FAMS=$(tp_btf_families)
[ -n "$FAMS" ] || skip "no family loads with tp_btf on this kernel"
# a cache file of this test's own, absent at first
export IODIG_KSYMS_CACHE=$TMP/ksyms/kallsyms
traced_run default
for f in /sys/kernel/btf/vmlinux /proc/kallsyms; do
	n=$(opens "$TMP/default.strace" $f)
	check "default: $f opened once for $(echo $FAMS | wc -w) tp_btf families and 2 repeats \
(got $n)" [ "$n" -eq 1 ]
done
main=$(awk 'NR == 1 {print $1}' "$TMP/default.strace")
check "default: kallsyms read by a child process, not iodig's own ($main)" \
	awk -v m="$main" '/"\/proc\/kallsyms"/ && $1 != m {found = 1} END {exit !found}' \
	"$TMP/default.strace"
for f in $FAMS; do
	check "default: $f active, tp_btf, in the last repeat" jq -e --arg f "$f" \
		'.iodig.kernel.probes[] | select(.family == $f)
		 | .state == "active" and .mechanism == "tp_btf"' "$TMP/default.json" >/dev/null
done
check "default: both repeats have block's and sched's figures" \
	jq -e '.iodig.repeats.runs | length == 2 and all(.figures
	       | has("kernel.requests_per_io") and has("kernel.switches_per_io"))' \
	"$TMP/default.json" >/dev/null
# strace stops the workload in ptrace_stop: a switch with a stack to name
check "default: both repeats name sched's blocking functions" \
	jq -e '.iodig.repeats.runs | all(.figures | keys | any(startswith("fn|sched|")))' \
	"$TMP/default.json" >/dev/null

check "default: the boot's symbols kept in $IODIG_KSYMS_CACHE, for this user only" \
	[ -f "$IODIG_KSYMS_CACHE" ] && [ "$(stat -c %a "$IODIG_KSYMS_CACHE")" = 600 ]
traced_run cached
n=$(opens "$TMP/cached.strace" /proc/kallsyms)
check "cached: /proc/kallsyms not opened, the boot's file read (got $n opens)" \
	[ "$n" -eq 0 ] && grep -q "\"$IODIG_KSYMS_CACHE\"" "$TMP/cached.strace"
check "cached: both repeats name sched's blocking functions" \
	jq -e '.iodig.repeats.runs | all(.figures | keys | any(startswith("fn|sched|")))' \
	"$TMP/cached.json" >/dev/null

# IODIG_BTF: a copy of the kernel's BTF, read for CO-RE; tp_btf still
# needs the running kernel's own ids, so that file is read too.
cp /sys/kernel/btf/vmlinux "$TMP/copy.btf"
traced_run custom IODIG_BTF="$TMP/copy.btf"
check "custom: the IODIG_BTF file read" grep -q "\"$TMP/copy.btf\"" "$TMP/custom.strace"
for f in $FAMS; do
	check "custom: $f active, tp_btf" jq -e --arg f "$f" \
		'.iodig.kernel.probes[] | select(.family == $f)
		 | .state == "active" and .mechanism == "tp_btf"' "$TMP/custom.json" >/dev/null
done
done_testing
