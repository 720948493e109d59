# Random offsets and random file choice against fio 3.33: each tool's write_iolog, the sequence of (file, direction, offset, length) in order, for rw=randread/randwrite/randrw with the random map, norandommap, random_generator=tausworthe64 and lfsr (loops repeating its cycle), bsrange and bssplit, default seeds and randseed, and nrfiles>1 with file_service_type=random (also random:N), roundrobin and sequential, rw=randread:N, percentage_random and a filesize range.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# both CASE JOB-ARGS...: each tool runs the job in its own empty
# directory with write_iolog; the I/O sequences must be equal (when a
# file is opened is not what this test is about)
both() { iolog_same_ios "$@"; }

# one file: the random map, norandommap, the generators, sizes, seeds
both map_randrw --name=j --filename=f --size=512k --bs=4k --rw=randrw
both map_seed --name=j --filename=f --size=512k --bs=4k --rw=randread --randseed=1234
both nomap_bsrange --name=j --filename=f --size=512k --bsrange=4k-32k --rw=randrw --norandommap=1
both taus64_seed --name=j --filename=f --size=512k --bs=4k --rw=randwrite \
	--random_generator=tausworthe64 --randseed=42 --randrepeat=0
both lfsr_loops --name=j --filename=f --size=512k --bs=4k --rw=randread \
	--random_generator=lfsr --loops=2
both lfsr_bsrange_seed --name=j --filename=f --size=512k --bsrange=4k-16k --rw=randwrite \
	--random_generator=lfsr --randseed=99
# several files: the offsets go on from one generator across the files,
# each file with its own map; the file choice from fio's own seed
both files_random --name=j --nrfiles=4 --size=512k --bs=4k --rw=randread --file_service_type=random
both files_random_nr --name=j --nrfiles=4 --size=512k --bs=4k --rw=randread \
	--file_service_type=random:4
both files_roundrobin --name=j --nrfiles=4 --size=512k --bs=4k --rw=randread \
	--file_service_type=roundrobin
both files_sequential --name=j --nrfiles=3 --size=384k --bs=4k --rw=randwrite \
	--file_service_type=sequential
both files_randrw_seed --name=j --nrfiles=3 --size=384k --bs=4k --rw=randrw \
	--file_service_type=random --randseed=77
both files_bssplit --name=j --nrfiles=3 --size=768k --bssplit=4k/50:16k/30:64k/20 --rw=randrw \
	--file_service_type=random
both files_nomap --name=j --nrfiles=3 --size=768k --bsrange=4k-32k --rw=randwrite \
	--file_service_type=random --norandommap=1
both files_taus64 --name=j --nrfiles=3 --size=384k --bs=4k --rw=randread \
	--random_generator=tausworthe64 --file_service_type=random --randseed=5
both files_lfsr_loops --name=j --nrfiles=3 --size=192k --bs=4k --rw=randread \
	--random_generator=lfsr --file_service_type=random --loops=2
# rw=randread:N counts the job's I/Os, not a file's; percentage_random
# draws for the job; files of sizes drawn from a filesize range
both files_rw_seq --name=j --nrfiles=3 --size=192k --bs=4k --rw=randread:4 \
	--file_service_type=random
both files_percentage --name=j --nrfiles=3 --size=192k --bs=4k --rw=randread \
	--file_service_type=random --percentage_random=50
both files_filesize --name=j --nrfiles=3 --filesize=64k-256k --bs=4k --rw=randwrite \
	--file_service_type=random
done_testing
