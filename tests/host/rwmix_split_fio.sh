# rw/readwrite/randrw split reads and writes exactly as fio 3.33 does (get_rw_ddir's runs: a direction drawn from the job's mix generator only when the current one has issued its run, a new run as long as the old direction's issues times the new one's share), so every sized mixed job has fio's total_ios and io_bytes per direction: rwmixread 10/50/70 and rwmixwrite, bs, bsrange and bssplit, numjobs clones with and without randseed, allrandrepeat, rw=randrw:N, loops (a sync engine's loop ends only where a direction reaches the end, the last one doing what size times loops leaves), io_size past size (a new loop at the region's end, or with an async engine at size queued: both positions from the start, the run anew), fsync, libaio and io_uring at iodepth 8; with rate=, a direction ahead of its rate gives way to the other (fio's rate_ddir); randrepeat=0 draws differ per run in both tools, so only the totals are compared there.
# timeout: 300
source tests/host/lib.sh
fio_loop_test 16
BASE=(--name=t --filename="$LOOP" --direct=1)
Q='[.jobs[] | [.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes]]'

# split TOOL ARGS...: per job [reads, read bytes, writes, write bytes]
split() {
	local tool=$1; shift
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --allow-destructive --output-format=json \
			"${BASE[@]}" "$@" >out.json 2>err.txt
	else
		fio --output-format=json "${BASE[@]}" "$@" >out.json 2>err.txt
	fi
	jq -c "$Q" out.json 2>/dev/null
}

equal() { [ -n "$1" ] && [ "$1" = "$2" ]; }

# same ARGS...: both tools run the job; each job's figures are equal
same() {
	local i f
	i=$(split iodig "$@"); f=$(split fio "$@")
	check "$*: iodig $i, fio $f" equal "$i" "$f"
}

# same_totals ARGS...: only each job's sums of I/Os and bytes are equal
same_totals() {
	local sums='map([.[0] + .[2], .[1] + .[3]])' i f
	i=$(split iodig "$@" | jq -c "$sums"); f=$(split fio "$@" | jq -c "$sums")
	check "$* (totals): iodig $i, fio $f" equal "$i" "$f"
}

for rw in rw randrw; do
	for mix in 10 50 70; do
		same --rw=$rw --rwmixread=$mix --bs=4k --size=4m --ioengine=psync
	done
done
same --rw=readwrite --rwmixwrite=30 --bs=4k --size=4m --ioengine=psync
same --rw=randrw --rwmixwrite=30 --bs=4k --size=4m --ioengine=psync
same --rw=rw --rwmixread=70 --bsrange=4k-64k --size=8m --ioengine=psync
same --rw=randrw --rwmixread=60 --bssplit=4k/50:16k/30:64k/20 --size=8m --ioengine=psync
same --rw=randrw --bs=4k --size=4m --numjobs=2 --ioengine=psync
same --rw=randrw --rwmixread=70 --bs=4k --size=4m --numjobs=2 --randseed=1234 --ioengine=psync
same --rw=randrw --rwmixread=70 --bs=4k --size=4m --allrandrepeat=1 --ioengine=psync
same --rw=randrw:4 --rwmixread=70 --bs=4k --size=4m --ioengine=psync
same --rw=randrw --rwmixread=70 --bs=4k --size=4m --loops=2 --ioengine=psync
same --rw=rw --rwmixread=70 --bs=4k --size=4m --loops=2 --ioengine=libaio --iodepth=8
# a sync engine's loop is not cut at size (fio's do_io counts only queued
# bytes there): it runs until a direction reaches the end, the last loop
# does what the job's size times loops leaves
same --rw=rw --rwmixread=70 --bs=4k --size=4m --loops=2 --ioengine=psync
same --rw=rw --rwmixread=40 --bs=4k --size=4m --loops=3 --ioengine=sync
same --rw=randrw --rwmixread=70 --bs=4k --size=4m --loops=2 --norandommap --ioengine=psync
same --rw=rw --rwmixread=70 --bs=4k --size=2m --io_size=6m --ioengine=psync
same --rw=randrw --rwmixread=70 --bs=4k --size=2m --io_size=7m --ioengine=psync
# an async engine's loop ends at size queued, and a new one starts
# (norandommap random writes go on to io_size)
same --rw=rw --rwmixread=30 --bs=4k --size=2m --io_size=6m --ioengine=libaio --iodepth=8
same --rw=randrw --rwmixread=70 --bs=4k --size=2m --io_size=7m --norandommap --ioengine=libaio --iodepth=8
same --rw=randrw --rwmixread=70 --bs=4k --size=4m --fsync=3 --ioengine=psync
same --rw=randrw --rwmixread=50 --bs=4k --size=4m --ioengine=libaio --iodepth=8
same --rw=randrw --rwmixread=30 --bsrange=4k-32k --size=8m --ioengine=io_uring --iodepth=8
same_totals --rw=randrw --rwmixread=70 --bs=4k --size=4m --randrepeat=0 --ioengine=psync

# rate= (fio's rate_ddir): while the drawn direction is ahead of its rate
# the other one goes, at once when it has no rate: with reads at 4 KiB/s
# the job is one read and the rest writes, not a 1 s wait per read
near() { [ -n "$1" ] && [ -n "$2" ] && [ $(($1 - $2)) -le "$3" ] && [ $(($2 - $1)) -le "$3" ]; }
i=$(split iodig --rw=randrw --bs=4k --size=4m --rate=4k, --runtime=3 --ioengine=psync)
f=$(split fio --rw=randrw --bs=4k --size=4m --rate=4k, --runtime=3 --ioengine=psync)
check "rate=4k,: one or two reads, the rest writes: iodig $i, fio $f" \
	near "$(jq '.[0][0] + .[0][2]' <<<"$i")" 1024 0 && near "$(jq '.[0][0]' <<<"$i")" 1 1
# both rated: each direction at its own rate until the size is done,
# about 1 + 100 t reads and 1 + 400 t writes
i=$(split iodig --rw=randrw --bs=4k --size=2m --rate_iops=100,400 --ioengine=psync)
f=$(split fio --rw=randrw --bs=4k --size=2m --rate_iops=100,400 --ioengine=psync)
check "rate_iops=100,400: fio's reads within 10 (timing): iodig $i, fio $f" \
	near "$(jq '.[0][0]' <<<"$i")" "$(jq '.[0][0]' <<<"$f")" 10
done_testing
