#!/bin/bash
# allrandrepeat and randseed as fio 3.33 seeds a job (setup_random_seeds):
# with allrandrepeat=1 every generator is seeded from fio's constant,
# whatever randseed and randrepeat say, so two runs write the same offsets
# (write_iolog) and the same bytes (the file's md5, refill_buffers without
# scrambling), and both are fio's; randseed given makes a randrepeat=0 job
# repeatable too (and a clone's offsets follow it, not fio's constant);
# with tausworthe64 the buffers' generator is 64-bit too; randrepeat=0
# alone does not repeat, in either tool.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
cd "$TMP" || exit 1
# run TOOL... : "OFFSETS DATA0 DATA1": the md5s of the writes in the
# write_iolog of a random write job, then of each clone's file of the same
# job with numjobs=2 (fio's clones write one log together, iodig's one
# each; the data follow the offsets, refill_buffers filling each write)
run() {
	rm -f w.* log.txt
	"$@" --name=w --directory="$TMP" --rw=randwrite --bs=4k --size=256k \
		--refill_buffers --scramble_buffers=0 --write_iolog=log.txt $OPTS \
		>out.txt 2>err.txt || fail "$1 failed: $(head -c 200 err.txt)"
	echo -n "$(awk '$3 == "write" {print $4, $5}' log.txt 2>/dev/null | md5sum | cut -c1-8) "
	rm -f w.*
	"$@" --name=w --directory="$TMP" --rw=randwrite --bs=4k --size=256k --numjobs=2 \
		--refill_buffers --scramble_buffers=0 $OPTS \
		>out.txt 2>err.txt || fail "$1 failed: $(head -c 200 err.txt)"
	echo "$(md5sum <w.0.0 | cut -c1-8) $(md5sum <w.1.0 | cut -c1-8)"
}
iodig=("$IODIG" run --no-probes --no-save)
declare -A got
while read -r OPTS; do
	f=$(run fio)
	i1=$(run "${iodig[@]}")
	i2=$(run "${iodig[@]}")
	got[$OPTS]=$i1
	check "'$OPTS': iodig repeats itself ('$i1', '$i2')" [ "$i1" = "$i2" ]
	check "'$OPTS': offsets and data as fio's: iodig '$i1', fio '$f'" [ "$i1" = "$f" ]
done <<'EOF'
--randrepeat=0 --allrandrepeat=1
--allrandrepeat=1
--allrandrepeat=1 --randseed=7
--randrepeat=0 --randseed=5
--randrepeat=0 --allrandrepeat=1 --bsrange=4k-16k
--randrepeat=0 --allrandrepeat=1 --random_generator=tausworthe64
--random_generator=tausworthe64
--randseed=7
EOF
a=${got[--allrandrepeat=1]} b=${got[--allrandrepeat=1 --randseed=7]}
check "allrandrepeat: the first job takes no randseed ('$a', '$b')" [ "${a% *}" = "${b% *}" ]
check "allrandrepeat's data are not the default seeds'" \
	[ "${got[--allrandrepeat=1]}" != "$(OPTS= run "${iodig[@]}")" ]
# randrepeat=0 alone: random seeds, runs differ (in fio too)
OPTS=--randrepeat=0
a=$(run "${iodig[@]}"); b=$(run "${iodig[@]}")
check "randrepeat=0: two runs differ ('$a', '$b')" [ "$a" != "$b" ]
done_testing
