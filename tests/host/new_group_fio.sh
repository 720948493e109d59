# new_group against fio 3.33: reporting group ids as fio numbers them (new_group and stonewall each open one), a new_group job runs beside the jobs before it (no stonewall), and exitall with exit_what=group stops its own reporting group only; with probes on, the kernel section of a stonewall group names all its jobs, whatever their reporting groups.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
need_root
cd "$TMP" || exit 1
truncate -s 1m data || exit 1
cat >ng.fio <<JOB
[global]
ioengine=psync
filename=$TMP/data
size=1m
rw=read
[short]
exitall=1
[sibling]
time_based
runtime=20
[other]
new_group
time_based
runtime=3
[after]
stonewall
[last]
new_group
JOB
fio --output-format=json ng.fio 2>/dev/null | sed -n '/^{/,$p' >f.json
"$IODIG" run --no-probes --no-save --output-format=json ng.fio >i.json 2>err
ids() { jq -c '[.jobs[].groupid]' "$1" 2>/dev/null; }
for out in f i; do
	check "$out: group ids $(ids $out.json)" [ "$(ids $out.json)" = "[0,0,1,2,3]" ]
	ms=$(jqr '.jobs[1].job_runtime' $out.json)
	check "$out: exitall stopped its group's 20 s job (${ms} ms)" [ "$ms" -lt 10000 ]
	ms=$(jqr '.jobs[2].job_runtime' $out.json)
	check "$out: the new_group job ran its 3 s, beside them (${ms} ms)" [ "$ms" -ge 3000 ]
done
"$IODIG" run --no-save --output-format=normal ng.fio >t.txt 2>err
check "kernel section of the first stonewall group names its three jobs" \
	grep -q "^Kernel, group 0 (jobs short, sibling, other: 3 workers)" t.txt
done_testing
