# random_distribution=sequence and random_sequence_stride (fio after 3.33, which fio 3.33 refuses): each I/O's offset, from write_iolog, is the documented block (the pattern's, plus the rounds done times its length with the stride), fio's examples/sequence-distribution.fio runs so, a stride past the region ends the job, a pattern block past it is the job's error, and malformed patterns are refused.
source tests/host/lib.sh
CORPUS=${IODIG_FIO_CORPUS:-/work/shared/fio-corpus}
cd "$TMP" || exit 1

# expected SEQ STRIDE COUNT BS: the offsets fio's HOWTO and its
# t/sequence.py give, one a line
expected() {
	python3 -c "
import sys
seq = [int(x) for x in sys.argv[1].split(',')]
stride, n, bs = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for i in range(n):
    print((seq[i % len(seq)] + (i // len(seq) * len(seq) if stride else 0)) * bs)" "$@"
}
# offsets LOG: the offsets of the log's reads and writes, one a line
offsets() { awk '$3 == "read" || $3 == "write" { print $4 }' "$1"; }
# same CASE LOG SEQ STRIDE COUNT BS
same() {
	local got want
	got=$(offsets "$2" | tr '\n' ' ') want=$(expected "$3" "$4" "$5" "$6" | tr '\n' ' ')
	check "$1: offsets $got, as documented ($want)" [ -n "$want" -a "$got" = "$want" ]
}

# fio's own example, each job logging its I/O
if [ -f "$CORPUS/fio__examples_sequence-distribution.fio" ]; then
	sed -e '/^\[repeating_sequence\]/a write_iolog=rep.log' \
	    -e '/^\[strided_sequence\]/a write_iolog=str.log' \
	    "$CORPUS/fio__examples_sequence-distribution.fio" >example.fio
	"$IODIG" run --no-probes --no-save example.fio >example.out 2>&1
	rc=$?
	check "examples/sequence-distribution.fio runs ($(tail -c 300 example.out))" [ "$rc" = 0 ]
	same "example, stride 0" rep.log 2,0,1 0 6 4096
	same "example, stride 1" str.log 2,0,1 1 6 4096
fi

J=(--name=s --no-probes --no-save --filename="$TMP/f" --size=64k)
run() { "$IODIG" run "${J[@]}" "$@" >run.out 2>&1; }
# 8k blocks, writes: a stride over the 8 blocks of 64k, then the end
# though io_size asks for more (fio: no next block ends the file)
run --rw=randwrite --bs=8k --io_size=256k --random_distribution=sequence:3,1,0,2 \
	--random_sequence_stride=1 --write_iolog=w.log
rc=$?
check "stride past the region: the job ends well ($(tail -c 300 run.out))" [ "$rc" = 0 ]
same "8k writes, stride 1" w.log 3,1,0,2 1 8 8192
# without the stride the pattern repeats until io_size is done
run --rw=randwrite --bs=8k --io_size=80k --random_distribution=sequence:7,7,0 \
	--write_iolog=r.log
same "8k writes, stride 0" r.log 7,7,0 0 10 8192

# a block of the pattern past the region: the job fails, naming it
run --rw=randread --bs=4k --random_distribution=sequence:0,16 --io_size=64k
rc=$?
check "block 16 of 16: the job fails ($rc)" [ "$rc" != 0 ]
check "block 16 of 16: says why ($(tail -c 300 run.out))" grep -q "sequence names a block past" run.out

for bad in "sequence:" "sequence:1,,2" "sequence:1,-2" "sequence:1 2" "sequence:x" \
	   "sequence:$(seq -s, 0 64)"; do
	"$IODIG" run "${J[@]}" --rw=randread --random_distribution="$bad" >bad.out 2>&1
	check "'${bad:0:24}' is refused ($(head -c 200 bad.out))" \
		grep -q "option 'random_distribution'" bad.out
done
"$IODIG" run "${J[@]}" --rw=randread --random_distribution="sequence:$(seq -s, 0 63)" \
	--io_size=4k >ok.out 2>&1
rc=$?
check "64 block indices are taken ($(tail -c 200 ok.out))" [ "$rc" = 0 ]
run --rw=randread --random_distribution="sequence: 3 ,1" --io_size=8k --write_iolog=b.log
same "blanks around an index, as fio strips them" b.log 3,1 0 2 4096
done_testing
