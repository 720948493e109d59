#!/bin/bash
# startdelay=A-B as fio 3.33: the job waits a time drawn in the range from
# its own start-delay generator (seeded from randseed, or allrandrepeat's
# constant), the same draw as fio's for the first job of a file.  The wait
# is the time from the tool's execve to the job's first write (strace),
# less the same for startdelay=0: iodig's and fio's agree within 0.4 s,
# and iodig's two runs of a job within 0.2 s.  A reversed range (fio waits
# for hours) and a range that is no time are refused.
# timeout: 240
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
command -v strace >/dev/null || skip "no strace"
cd "$TMP" || exit 1
iodig=("$IODIG" run --no-probes --no-save)
# wait_ms TOOL... : ms from execve to the job's first write, in W
wait_ms() {
	rm -f f
	strace -f -ttt -e trace=execve,pwrite64 -o st.txt "$@" --name=w --filename=f \
		--rw=write --bs=4k --size=64k >out.txt 2>err.txt ||
		fail "$1 failed: $(head -c 200 err.txt)"
	W=$(awk 'NR == 1 {t0 = $2} /pwrite64\(.*, 4096, 0\)/ {printf "%d", ($2 - t0) * 1000; exit}' st.txt)
	W=${W:-0}
}
wait_ms fio --startdelay=0; fbase=$W
wait_ms "${iodig[@]}" --startdelay=0; ibase=$W
for opts in "--startdelay=1-4" "--startdelay=0-8 --randseed=5" \
	    "--startdelay=500ms-6s --allrandrepeat=1"; do
	wait_ms fio $opts; f=$((W - fbase))
	wait_ms "${iodig[@]}" $opts; i1=$((W - ibase))
	wait_ms "${iodig[@]}" $opts; i2=$((W - ibase))
	d=$((i1 - f)); d=${d#-}; r=$((i1 - i2)); r=${r#-}
	check "'$opts': iodig waits ${i1} ms, fio ${f} ms (within 400)" [ "$d" -le 400 ]
	check "'$opts': iodig's two runs wait ${i1} and ${i2} ms (within 200)" [ "$r" -le 200 ]
done
# the wait stays in the range: 0-2s with 5 seeds
for s in 1 2 3 4 5; do
	wait_ms "${iodig[@]}" --startdelay=1-2 --randseed=$s
	check "randseed=$s: 1-2 s waits $((W - ibase)) ms" \
		[ $((W - ibase)) -ge 900 -a $((W - ibase)) -le 2300 ]
done
refused "a reversed range" "option 'startdelay': '4-1' ends before it starts" \
	--rw=write --filename=$TMP/f --startdelay=4-1
refused "a range of no time" "option 'startdelay': 'x'" \
	--rw=write --filename=$TMP/f --startdelay=1-x
done_testing
