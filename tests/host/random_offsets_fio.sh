# Random offsets and random file choice against fio 3.33: each tool's write_iolog, the sequence of (file, direction, offset, length) in order, for rw=randread/randwrite/randrw with the random map, norandommap, random_generator=tausworthe64 and lfsr (loops repeating its cycle), bsrange and bssplit, default seeds and randseed, and nrfiles>1 with file_service_type=random (also random:N), roundrobin and sequential, rw=randread:N, percentage_random and a filesize range, and random_distribution=zipf, pareto and normal (with :center), one file and several, default seeds, randseed alone and with randrepeat=0.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# both CASE JOB-ARGS...: each tool runs the job with write_iolog in its
# own empty directory; the I/O sequences must be equal
both() { iolog_same "$@"; }

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
# random_distribution=zipf, pareto, normal (and :center): each file's
# draws seeded as fio seeds them, from its name or the block seed
J="--name=j --size=512k --bs=4k"
# one file named by filename=: fio seeds its draws from the name's hash
both dist_zipf $J --filename=f --rw=randread --random_distribution=zipf:1.2
both dist_pareto $J --filename=f --rw=randwrite --random_distribution=pareto:0.3
both dist_normal $J --filename=f --rw=randread --random_distribution=normal
both dist_normal_dev $J --filename=f --rw=randread --random_distribution=normal:10
# :center puts the hot spot in place of the drawn one
both dist_zipf_center $J --filename=f --rw=randread --random_distribution=zipf:1.2:0.3
both dist_pareto_center $J --filename=f --rw=randread --random_distribution=pareto:0.3:0.7
both dist_normal_center $J --filename=f --rw=randread --random_distribution=normal:20:0.2
# the job's own file, a name longer than fio's 12-byte hash rounds
both dist_zipf_own_file --name=averylongjobname --size=512k --bs=4k --rw=randwrite \
	--random_distribution=zipf:1.3
# randseed alone: every file from fio's constant block seed; with
# randrepeat=0 from randseed's block seed
both dist_zipf_randseed $J --filename=f --rw=randread --random_distribution=zipf:0.8 --randseed=1234
both dist_pareto_norepeat $J --filename=f --rw=randread --random_distribution=pareto:0.2 \
	--randseed=77 --randrepeat=0
both dist_zipf_bsrange_norepeat $J --filename=f --bsrange=4k-16k --rw=randwrite \
	--random_distribution=zipf:1.5 --randseed=3 --randrepeat=0
# several files, each with its own draws; clones; a second loop
both dist_zipf_files --name=j --nrfiles=3 --size=384k --bs=4k --rw=randread \
	--file_service_type=random --random_distribution=zipf:1.1
both dist_normal_files_seed --name=j --nrfiles=3 --size=384k --bs=4k --rw=randrw \
	--random_distribution=normal:5 --randseed=9
both dist_pareto_dir_files --name=j --directory=. --nrfiles=2 --size=256k --bs=4k --rw=randread \
	--random_distribution=pareto:0.4
# clones: each appends its log to the one file as it ends, so the order
# of the two clones' lines is the order they ended in, in either tool:
# each clone's lines are compared with fio's lines of it
clones_both() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace c
	iolog_pair "$@"
	for c in j.0.0 j.1.0; do
		check "$name: fio logged clone $c's 64 I/Os" [ "$(iolog_ios "$f" | grep -c "^$c ")" = 64 ]
		check "$name: clone $c's offsets in fio's order" \
			cmp -s <(iolog_ios "$i" | grep "^$c ") <(iolog_ios "$f" | grep "^$c ")
	done
}
clones_both dist_zipf_numjobs --name=j --numjobs=2 --size=256k --bs=4k --rw=randread \
	--random_distribution=zipf:1.2
both dist_normal_loops --name=j --filename=f --size=128k --bs=4k --rw=randread \
	--random_distribution=normal:30 --loops=2
done_testing
