# Several files over several passes against fio 3.33: with io_size past the files' total each pass is a new fio loop (generators reseeded with randrepeat, not with a randseed), so each tool's write_iolog I/O sequence must be equal, and its file opens and closes too (without openfiles a file opens when first picked and closes once done, each pass); loops= with a randseed goes on with its draws; filesize=LOW,HIGH is fio's range, with the I/O counts of fio.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# both CASE JOB-ARGS...: each tool runs the job in its own empty
# directory with write_iolog; the I/O sequences must be equal, and with
# the files' opens and closes
both() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace
	iolog_same "$@"
	check "$name: fio's opens ($(iolog_all "$f" 2>/dev/null | grep -c ' open$')) and closes in fio's order: $(diff <(iolog_all "$i" 2>&1) <(iolog_all "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_all "$i") <(iolog_all "$f")
}

# io_size three times the files: three passes, each a new loop
both pass_random --name=j --nrfiles=2 --size=64k --io_size=192k --bs=4k --rw=randread \
	--file_service_type=random
both pass_roundrobin --name=j --nrfiles=2 --size=64k --io_size=192k --bs=4k --rw=randread \
	--file_service_type=roundrobin
both pass_sequential --name=j --nrfiles=2 --size=64k --io_size=192k --bs=4k --rw=randwrite \
	--file_service_type=sequential
both pass_randrw --name=j --nrfiles=3 --size=64k --io_size=192k --bs=4k --rw=randrw
# loops=2: the files closed after a loop, opened again in the next
both loops_files --name=j --nrfiles=2 --size=64k --loops=2 --bs=4k --rw=randread \
	--file_service_type=random
# a randseed: no reseed at the new loop, the draws go on
both pass_randrw_seed --name=j --nrfiles=3 --size=96k --io_size=192k --bs=4k --rw=randrw \
	--randseed=7
# one file: closed and opened again between loops
both loops_seed --name=j --filename=f --size=64k --loops=2 --bs=4k --rw=randrw --randseed=7
# filesize=2k,16k is fio's range 2k-16k
both filesize_comma --name=j --rw=randrw --nrfiles=4 --filesize=2k,16k
for d in read write; do
	check "filesize_comma: $d I/Os as fio's" [ "$(iolog_ios "$TMP/filesize_comma/i/trace" | grep -c " $d ")" = \
		"$(iolog_ios "$TMP/filesize_comma/f/trace" | grep -c " $d ")" ]
done
done_testing
