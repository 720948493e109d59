# random_generator=lfsr against fio 3.33 (its t/jobs/t0021 with two loops): a 1 MiB file read at random in 4k blocks with no random map, each block exactly once per loop in both (fio's bw log with offsets), the same I/O count, and iodig's order not sequential.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
need_root
mkdir "$TMP/f" "$TMP/i" || exit 1
JOB=(--name=test --filename="$TMP/data" --size=1m --rw=randread --norandommap=1
     --random_generator=lfsr --loops=2 --write_bw_log=test --per_job_logs=0 --log_offset=1)
truncate -s 1m "$TMP/data" || exit 1
(cd "$TMP/f" && fio --output-format=json "${JOB[@]}" 2>/dev/null | sed -n '/^{/,$p' >out.json)
(cd "$TMP/i" && "$IODIG" run --no-probes --no-save --output-format=json "${JOB[@]}" >out.json 2>err)
# each 4k block's count of reads in a bw log, as "offset count" lines, sorted
blocks() { awk -F', ' '{print $5}' "$1" | sort -n | uniq -c | awk '{print $2, $1}'; }
expected=$(for ((b = 0; b < 256; b++)); do echo "$((b * 4096)) 2"; done)
for who in f i; do
	check "$who: 512 reads" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/$who/out.json")" = 512 ]
	check "$who: every block read exactly once per loop" [ "$(blocks "$TMP/$who/test_bw.log")" = "$expected" ]
done
seq=$(awk -F', ' 'NR > 1 && $5 == prev + 4096 {n++} {prev = $5} END {print n + 0}' "$TMP/i/test_bw.log")
check "iodig: not sequential ($seq of 511 steps to the next block)" [ "$seq" -lt 128 ]
done_testing
