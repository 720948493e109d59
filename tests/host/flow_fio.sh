# fio's flow control (flow, flow_id, flow_sleep) against fio 3.33: two jobs of one flow_id with weights 1 and 4 issue their I/O in that ratio in both, a job in another flow_id is not held back by them, and flow_watermark, which fio 3.33 only warns is deprecated, is refused saying so.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
need_root
cd "$TMP" || exit 1
# both JOB...: f.json from fio, i.json from iodig (its errors in $TMP/err)
both() {
	fio --output-format=json "$@" 2>/dev/null | sed -n '/^{/,$p' >f.json
	"$IODIG" run --no-probes --no-save --output-format=json "$@" >i.json 2>"$TMP/err"
}
# ratio JSON A B: jobs[B] I/Os over jobs[A]'s, times 100
ratio() { jq -r "(.jobs[$3].read.total_ios * 100 / .jobs[$2].read.total_ios) | floor" "$1" 2>/dev/null || echo 0; }

# 4 s, not 2: a job that starts or ends a few scheduling delays after its
# partner issues alone meanwhile (in fio too), and on a loaded machine that
# moved the ratio by a quarter in 2 s.
JOB=(--ioengine=null --bs=4k --size=1g --rw=read --thread --time_based --runtime=4
     --flow_id=3 --flow_sleep=100
     --name=light --flow=1 --name=heavy --flow=4 --name=other --flow_id=9 --flow=1)
both "${JOB[@]}"
for out in f i; do
	r=$(ratio $out.json 0 1)
	check "$out: heavy/light I/Os is 4:1 within 15% (${r}%)" between "$r" 340 460
	r=$(ratio $out.json 0 2)
	check "$out: the job of flow_id 9 is not held to light's pace (${r}%)" [ "$r" -ge 200 ]
done

"$IODIG" run --no-probes --name=w --ioengine=null --size=1m --flow_watermark=10 >/dev/null 2>"$TMP/err"
check "flow_watermark: refused naming fio's flow weights" grep -q "option 'flow_watermark'.*flow weights" "$TMP/err"
fio --name=w --ioengine=null --size=1m --flow_watermark=10 >"$TMP/ferr" 2>&1
check "fio 3.33 calls flow_watermark deprecated (and does nothing with it)" grep -q "flow_watermark is deprecated" "$TMP/ferr"
done_testing
