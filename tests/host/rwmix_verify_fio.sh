# A mixed job (rw, readwrite, randrw) that verifies with verify_backlog splits its reads and writes as fio 3.33 does: the reads of the verify log do not count in the mix's runs (fio's io_issues leave them out), so the writes are those of the same job without a backlog (fio's t/jobs/t0008: 270 writes of 4 KiB in 2 MiB, not 275); with do_verify=0 no write is logged, so no backlog read is issued.  Mixes 10 to 90, backlogs 1 to 32, verify_backlog_batch, bsrange, psync, libaio and io_uring: per job the same reads, writes, bytes and error as fio, and no verify error.
source tests/host/lib.sh
command -v fio >/dev/null || skip "fio not installed"
command -v jq >/dev/null || skip "jq not installed"

Q='.jobs[0] | [.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes, .error] | join(" ")'

# split TOOL ARGS...: the job's figures, run in an empty directory
split() {
	local tool=$1; shift
	rm -rf "$TMP/d" && mkdir "$TMP/d"
	if [ "$tool" = iodig ]; then
		(cd "$TMP/d" && "$IODIG" run --no-probes --no-save --output-format=json \
			--name=v "$@" >../out.json 2>../err.txt)
	else
		(cd "$TMP/d" && fio --output-format=json --name=v "$@" >../out.json 2>../err.txt)
	fi
	jq -r "$Q" "$TMP/out.json" 2>/dev/null || head -c 200 "$TMP/err.txt"
}

# agree IODIG FIO: the figures are there, equal, and end in error 0
agree() { [ -n "$1" ] && [ "$1" = "$2" ] && [ "${1##* }" = 0 ]; }

# same ARGS...: both tools' figures are equal and the job saw no error
same() {
	local i f
	i=$(split iodig "$@"); f=$(split fio "$@")
	check "$*: iodig [$i], fio [$f]" agree "$i" "$f"
}

V=(--bs=4k --size=2m --verify=crc32c)
# fio's t/jobs/t0008, at 2 MiB
same "${V[@]}" --rw=readwrite --do_verify=1 --verify_backlog=1
for rw in rw randrw; do
	for mix in 10 50 90; do
		same "${V[@]}" --rw=$rw --rwmixread=$mix --verify_backlog=4
	done
done
same "${V[@]}" --rw=randrw --verify_backlog=8
same "${V[@]}" --rw=rw --rwmixread=30 --verify_backlog=32
same "${V[@]}" --rw=randrw --rwmixread=70 --verify_backlog=16 --verify_backlog_batch=4
same "${V[@]}" --rw=rw --rwmixread=30 --verify=md5 --verify_backlog=3 --ioengine=libaio --iodepth=4
same "${V[@]}" --rw=randrw --rwmixread=90 --verify_backlog=2 --ioengine=io_uring --iodepth=8
same --bsrange=4k-16k --size=4m --verify=crc32c --rw=randrw --rwmixread=60 --verify_backlog=5
# do_verify=0: nothing is logged for verify, no backlog read
same "${V[@]}" --rw=randrw --verify_backlog=1 --do_verify=0
same "${V[@]}" --rw=write --verify_backlog=4 --do_verify=0
done_testing
