# wait_for=NAME: as in fio 3.33, the waiting job's first I/O comes after the last I/O of every worker of NAME (from both tools' latency logs with unix times), while a job without it runs alongside; a wait for an unknown, later or the same job is refused naming the job. timeout: 120
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
truncate -s 16m "$TMP/f"
jobfile() { # jobfile WAIT: writers, then readers with wait_for=WAIT ("" none)
	cat <<EOF
[global]
thread=1
filename=$TMP/f
size=8m
write_lat_log=lat
log_unix_epoch=1
runtime=1
time_based
[writers]
rw=write
bs=64k
numjobs=2
[readers]
new_group
${1:+wait_for=$1}
rw=randread
bs=4k
numjobs=2
EOF
}
# order DIR: "first-reader-I/O last-writer-I/O" in ms since 1970; workers
# 1, 2 are the writers, 3, 4 the readers, in both tools
order() {
	local first last
	first=$(cat "$1"/lat_lat.3.log "$1"/lat_lat.4.log | cut -d, -f1 | sort -n | head -1)
	last=$(cat "$1"/lat_lat.1.log "$1"/lat_lat.2.log | cut -d, -f1 | sort -n | tail -1)
	echo "${first:-0} ${last:-0}"
}
run_in() { # run_in DIR WAIT PROGRAM...
	local dir=$1 wait=$2; shift 2
	mkdir -p "$dir" && jobfile "$wait" >"$dir/job.fio"
	(cd "$dir" && "$@" job.fio >out 2>err) || fail "$dir: $(head -c 300 "$dir/err")"
}
for who in iodig fio; do
	if [ $who = iodig ]; then P=("$IODIG" run --no-probes --no-save); else P=(fio); fi
	run_in "$TMP/$who" writers "${P[@]}"
	read -r first last <<<"$(order "$TMP/$who")"
	check "$who wait_for: readers start ($first) after the writers' last I/O ($last)" \
		[ "$first" -gt 0 -a "$first" -ge "$last" ]
	run_in "$TMP/$who-free" "" "${P[@]}"
	read -r first last <<<"$(order "$TMP/$who-free")"
	check "$who without wait_for: readers start ($first) before the writers end ($last)" \
		[ "$first" -gt 0 -a "$first" -lt "$last" ]
done

refused() { # refused WAIT MESSAGE-REGEX
	jobfile "$1" >"$TMP/bad.fio"
	out=$("$IODIG" run --no-probes --no-save --parse-only "$TMP/bad.fio" 2>&1)
	check "wait_for=$1 refused: $out" matches "$out" "$2"
}
refused zz "bad.fio:[0-9]+: job 'readers': wait_for=zz: no job of that name before"
refused readers "bad.fio:[0-9]+: job 'readers': a job cannot wait for itself"
done_testing
