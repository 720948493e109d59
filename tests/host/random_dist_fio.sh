# random_distribution=zipf, pareto and normal (with and without :center) against fio 3.33: each tool's write_iolog, the (file, direction, offset, length) of every I/O in order, one file and several, a job's own files and filename=, numjobs and loops, default seeds, randseed alone (fio then seeds the files from its block seed's constant) and randseed with randrepeat=0.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

# ios LOG: the I/O lines of an iolog without their times, file names
# without a leading ./ (iodig names the files it creates ./jobname.N.M,
# fio jobname.N.M); the files' add/open/close lines left out
ios() { sed -E '2,$s/^[0-9]+ //; s#^\./##' "$1" | grep -Ev ' (add|open|close)$' | grep -E ' (read|write) '; }

# both CASE JOB-ARGS...: each tool runs the job in its own empty
# directory with write_iolog; the I/O sequences must be equal
both() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace
	iolog_pair "$@"
	check "$name: fio logged I/O ($(ios "$f" 2>/dev/null | wc -l) lines)" [ -n "$(ios "$f" 2>/dev/null | head -1)" ]
	check "$name: fio's offsets in fio's order: $(diff <(ios "$i" 2>&1) <(ios "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(ios "$i") <(ios "$f")
}

J="--name=j --size=512k --bs=4k"
# one file named by filename=: fio seeds its draws from the name's hash
both zipf $J --filename=f --rw=randread --random_distribution=zipf:1.2
both pareto $J --filename=f --rw=randwrite --random_distribution=pareto:0.3
both normal $J --filename=f --rw=randread --random_distribution=normal
both normal_dev $J --filename=f --rw=randread --random_distribution=normal:10
# :center puts the hot spot in place of the drawn one
both zipf_center $J --filename=f --rw=randread --random_distribution=zipf:1.2:0.3
both pareto_center $J --filename=f --rw=randread --random_distribution=pareto:0.3:0.7
both normal_center $J --filename=f --rw=randread --random_distribution=normal:20:0.2
# the job's own file, a name longer than fio's 12-byte hash rounds
both zipf_own_file --name=averylongjobname --size=512k --bs=4k --rw=randwrite \
	--random_distribution=zipf:1.3
# randseed alone: every file from fio's constant block seed; with
# randrepeat=0 from randseed's block seed
both zipf_randseed $J --filename=f --rw=randread --random_distribution=zipf:0.8 --randseed=1234
both pareto_norepeat $J --filename=f --rw=randread --random_distribution=pareto:0.2 \
	--randseed=77 --randrepeat=0
both zipf_bsrange_norepeat $J --filename=f --bsrange=4k-16k --rw=randwrite \
	--random_distribution=zipf:1.5 --randseed=3 --randrepeat=0
# several files, each with its own draws; clones; a second loop
both zipf_files --name=j --nrfiles=3 --size=384k --bs=4k --rw=randread \
	--file_service_type=random --random_distribution=zipf:1.1
both normal_files_seed --name=j --nrfiles=3 --size=384k --bs=4k --rw=randrw \
	--random_distribution=normal:5 --randseed=9
both pareto_dir_files --name=j --directory=. --nrfiles=2 --size=256k --bs=4k --rw=randread \
	--random_distribution=pareto:0.4
both zipf_numjobs --name=j --numjobs=2 --size=256k --bs=4k --rw=randread \
	--random_distribution=zipf:1.2
both normal_loops --name=j --filename=f --size=128k --bs=4k --rw=randread \
	--random_distribution=normal:30 --loops=2
done_testing
