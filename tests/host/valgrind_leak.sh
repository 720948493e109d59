# valgrind memcheck of a short `iodig run` with the block probe family loaded: no leak, no invalid access, exit 0 (falls back to --no-probes, saying so, if valgrind cannot load BPF). timeout: 240
source tests/host/lib.sh
need_root
command -v valgrind >/dev/null || skip "valgrind is not installed (make deps)"
VG=(valgrind --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --error-exitcode=99
    --suppressions=tests/host/valgrind-bpf.supp
    # forked workers exit with the parent's heap still mapped: not leaks
    --child-silent-after-fork=yes)
# One family: each skeleton parses the kernel's BTF, which valgrind makes
# ~10 s slower per family; block covers open, load, attach, collect, destroy.
JOB=(--name=vg --rw=randread --bs=4k --size=16m --runtime=1 --time_based
     --output-format=json --output="$TMP/vg.json" --target=scratch)
probes=--probes=block
"${VG[@]}" "$IODIG" run $probes "${JOB[@]}" >"$TMP/out" 2>"$TMP/err"
rc=$?
state=$(jq -r '.iodig.kernel.probes[] | select(.family=="block") | .state' "$TMP/vg.json" 2>/dev/null)
if [ "$rc" -ne 99 ] && [ "$state" != active ]; then
	echo "valgrind could not run the BPF part (block family: ${state:-no report}); checking with --no-probes instead"
	probes=--no-probes
	"${VG[@]}" "$IODIG" run $probes "${JOB[@]}" >"$TMP/out" 2>"$TMP/err"
	rc=$?
else
	echo "valgrind ran the BPF part: block family $state"
fi
summary=$(grep 'ERROR SUMMARY' "$TMP/err" | tail -n 1)
check "valgrind $probes: exit $rc (99 = memcheck error): $summary" [ "$rc" -eq 0 ]
check "no definitely/indirectly lost bytes" bash -c "! grep -Eq '(definitely|indirectly) lost: [1-9]' '$TMP/err'"
check "report written" jq -e '.jobs[0].read.io_bytes > 0' "$TMP/vg.json"
[ "$FAILS" -eq 0 ] || grep -E -A14 '^==[0-9]+== (Invalid|Conditional|Syscall param|Use of|[0-9,]+ bytes in)' "$TMP/err" | head -n 60 >&2
done_testing
