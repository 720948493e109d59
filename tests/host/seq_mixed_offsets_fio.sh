# Sequential mixed jobs against fio 3.33: each tool's write_iolog, the sequence of (file, direction, offset, length) in order, for rw=rw/readwrite, rw=rw:8k holes, rwmixread=30/70 and bsrange on one file and on three (file_service_type roundrobin, roundrobin:4 and sequential), with loops=2 and io_size past size, psync and libaio: each direction goes on from its own last position in each file, as fio's last_pos[] per file.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# both CASE JOB-ARGS...: each tool runs the job with write_iolog in its
# own empty directory; the I/O sequences must be equal
both() { iolog_same "$@"; }

aio=(--ioengine=libaio --iodepth=4)
# one file
both one_rw --name=j --filename=f --size=256k --bs=4k --rw=rw
both one_rw_aio --name=j --filename=f --size=256k --bs=4k --rw=rw "${aio[@]}"
both one_hole --name=j --filename=f --size=256k --bs=4k --rw=rw:8k
both one_mix30_iosize --name=j --filename=f --size=128k --io_size=320k --bs=4k --rw=readwrite \
	--rwmixread=30
both one_bsrange --name=j --filename=f --size=100k --io_size=300k --bsrange=4k-16k --rw=rw
both one_loops --name=j --filename=f --size=128k --bs=4k --rw=rw --loops=2
# three files: each its own read and write positions
both files_rr --name=j --nrfiles=3 --size=384k --bs=4k --rw=rw --file_service_type=roundrobin
both files_rr_aio --name=j --nrfiles=3 --size=384k --bs=4k --rw=rw \
	--file_service_type=roundrobin "${aio[@]}"
both files_seq --name=j --nrfiles=3 --size=384k --bs=4k --rw=rw --file_service_type=sequential
both files_rr4 --name=j --nrfiles=3 --size=384k --bs=4k --rw=rw --file_service_type=roundrobin:4
both files_hole --name=j --nrfiles=3 --size=384k --bs=4k --rw=rw:8k --file_service_type=roundrobin
both files_write_hole --name=j --nrfiles=3 --size=384k --bs=4k --rw=write:8k \
	--file_service_type=sequential
both files_mix30 --name=j --nrfiles=3 --size=384k --bs=4k --rw=readwrite --rwmixread=30 \
	--file_service_type=roundrobin
both files_mix70_seq --name=j --nrfiles=3 --size=384k --bs=4k --rw=rw --rwmixread=70 \
	--file_service_type=sequential
both files_bsrange --name=j --nrfiles=3 --size=384k --bsrange=4k-32k --rw=rw \
	--file_service_type=roundrobin
both files_openfiles --name=j --nrfiles=4 --openfiles=2 --size=256k --bs=4k --rw=rw \
	--file_service_type=roundrobin
both files_filesize --name=j --nrfiles=3 --filesize=32k-128k --bs=4k --rw=rw \
	--file_service_type=roundrobin
# a loop ends once every file is done (psync) or at size queued (libaio);
# the next starts with the directions drawn anew, roundrobin and
# sequential from the file after the last one served
both files_loops_seq --name=j --nrfiles=3 --size=192k --bs=4k --rw=rw --loops=2 \
	--file_service_type=sequential
both files_loops_rr4 --name=j --nrfiles=4 --size=256k --bs=4k --rw=rw --rwmixread=70 --loops=2 \
	--file_service_type=roundrobin
both files_iosize --name=j --nrfiles=3 --size=192k --io_size=576k --bs=4k --rw=rw \
	--file_service_type=roundrobin
both files_iosize_aio --name=j --nrfiles=3 --size=192k --io_size=576k --bs=4k --rw=rw \
	--file_service_type=roundrobin "${aio[@]}"
both files_iosize_seq_aio --name=j --nrfiles=3 --size=192k --io_size=500k --bsrange=4k-16k \
	--rw=rw --rwmixread=30 --file_service_type=sequential --ioengine=libaio --iodepth=8
done_testing
