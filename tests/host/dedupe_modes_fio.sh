# dedupe_mode=repeat|working_set, dedupe_working_set_percentage and dedupe_global against fio 3.33: the same bytes as fio's for each mode (and fio's examples/dedupe-global.fio, smaller); the share of repeated 4 KiB blocks is dedupe_percentage's within the sampling's spread; working_set's repeats are at most its set's blocks; with dedupe_global two jobs' files share blocks, without it none.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
command -v python3 >/dev/null || skip "needs python3"
CORPUS=${IODIG_FIO_CORPUS:-/work/shared/fio-corpus}
cd "$TMP" || exit 1
# 1024 blocks: a share p of them repeated has a binomial spread of
# sqrt(p(1-p)/1024), under 1.6 points for any p; 5 points is over 3 of it
TOL=5
# run_both DIR: DIR/job.fio run by iodig in DIR/i (its status in DIR/rc)
# and by fio in DIR/f; each job writes NAME.0.0 there
run_both() {
	mkdir -p "$1/i" "$1/f"
	(cd "$1/i" && "$IODIG" run --no-probes --no-save ../job.fio >/dev/null 2>../i.err)
	echo $? >"$1/rc"
	(cd "$1/f" && fio ../job.fio >/dev/null 2>&1)
}
# both DIR JOB-FILE-LINES...: a job file of these lines, run by both
both() {
	mkdir -p "$1"
	printf '%s\n' "${@:2}" >"$1/job.fio"
	run_both "$1"
}
ONE=("[global]" rw=write bs=4k size=4m ioengine=libaio iodepth=4 "[d]")
# stats FILE...: "REPEATED_PCT DISTINCT_REPEATED SHARED": of the files'
# 4k blocks together, the percent that repeat an earlier one, how many
# different blocks occur more than once, and the blocks of the last file
# whose bytes are also in an earlier file
stats() {
	python3 -c "
import sys, collections
files = [open(f, 'rb').read() for f in sys.argv[1:]]
per = [[d[i:i + 4096] for i in range(0, len(d), 4096)] for d in files]
allb = [b for p in per for b in p]
count = collections.Counter(allb)
before = set(b for p in per[:-1] for b in p)
print(round(100 * (1 - len(count) / len(allb))), sum(1 for c in count.values() if c > 1),
      sum(1 for b in per[-1] if b in before))" "$@"
}
near() { [ "$1" -ge $(($2 - TOL)) ] && [ "$1" -le $(($2 + TOL)) ]; }

for mode in repeat working_set; do
	both $mode "${ONE[@]}" dedupe_percentage=30 dedupe_mode=$mode dedupe_working_set_percentage=10
	check "$mode: iodig writes fio's bytes ($(cat $mode/i.err))" cmp -s $mode/i/d.0.0 $mode/f/d.0.0
	read -r pct distinct _ < <(stats $mode/i/d.0.0)
	read -r fpct _ < <(stats $mode/f/d.0.0)
	check "$mode: ${pct}% of the blocks repeat (fio ${fpct}%), 30 +-$TOL" near "$pct" 30
	check "$mode: as many as fio's" [ "$pct" = "$fpct" ]
	eval "distinct_$mode=$distinct"
done
# the set is 10% of size's 1024 blocks: no more distinct blocks repeat;
# repeat mode, with its repeats spread over the file, has more
check "working_set: $distinct_working_set different blocks repeat, at most the set's 102" \
	[ "$distinct_working_set" -le 102 ]
check "repeat: $distinct_repeat different blocks repeat, more than the set's 102" \
	[ "$distinct_repeat" -gt 102 ]

# compression within the pieces, and 8k blocks: each a seed per 2k piece
both c "${ONE[@]}" bs=8k dedupe_percentage=40 dedupe_mode=working_set \
	buffer_compress_percentage=30 buffer_compress_chunk=2k
check "working_set with compression, 8k: fio's bytes ($(cat c/i.err))" cmp -s c/i/d.0.0 c/f/d.0.0

# two jobs: dedupe_global shares the set, so the files share blocks
two_jobs() { # DIR GLOBAL
	both "$1" "[global]" rw=write bs=4k size=4m ioengine=libaio iodepth=8 \
		dedupe_percentage=50 dedupe_mode=working_set dedupe_working_set_percentage=50 \
		dedupe_global="$2" "[a]" "[b]"
	check "dedupe_global=$2: fio's bytes in both files ($(cat "$1/i.err"))" \
		cmp -s "$1/i/a.0.0" "$1/f/a.0.0" && cmp -s "$1/i/b.0.0" "$1/f/b.0.0"
}
two_jobs g1 1
read -r _ _ shared < <(stats g1/i/a.0.0 g1/i/b.0.0)
read -r _ _ fshared < <(stats g1/f/a.0.0 g1/f/b.0.0)
check "dedupe_global=1: $shared blocks of b are in a (fio $fshared)" \
	[ "$shared" -gt 0 ] && [ "$shared" = "$fshared" ]
two_jobs g0 0
read -r _ _ shared < <(stats g0/i/a.0.0 g0/i/b.0.0)
check "dedupe_global=0: no block of b is in a ($shared)" [ "$shared" = 0 ]

# fio's example, at 8 MiB a job instead of 100
if [ -f "$CORPUS/fio__examples_dedupe-global.fio" ]; then
	mkdir -p ex
	sed 's/^size=100m/size=8m/' "$CORPUS/fio__examples_dedupe-global.fio" >ex/job.fio
	run_both ex
	check "examples/dedupe-global.fio runs ($(cat ex/i.err))" [ "$(cat ex/rc)" = 0 ]
	check "examples/dedupe-global.fio: fio's bytes" \
		cmp -s ex/i/a.0.0 ex/f/a.0.0 && cmp -s ex/i/b.0.0 ex/f/b.0.0
fi

"$IODIG" run --no-probes --no-save --name=n --rw=write --filename="$TMP/n" \
	--dedupe_percentage=10 --dedupe_mode=working_set >n.out 2>&1
check "working_set without size is refused ($(head -c 200 n.out))" grep -q "needs size=" n.out
done_testing
