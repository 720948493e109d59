#!/bin/bash
# write_hint as fio 3.33: each regular file and block device the job opens
# gets the hint by fcntl F_SET_RW_HINT (its inode's, read back afterwards
# with F_GET_RW_HINT from another process), once per file, for reading
# jobs too; none without the option, none for null (no file); with
# direct=1 the hint goes per open file (F_SET_FILE_RW_HINT), which this
# kernel refuses, and the job fails with EINVAL as fio's does.
. "$(dirname "$0")/lib.sh"
fio_loop_test 16
command -v strace >/dev/null || skip "needs strace"
command -v python3 >/dev/null || skip "needs python3"
F_SET_RW_HINT=0x40c F_SET_FILE_RW_HINT=0x40e
# hint PATH [VALUE]: prints PATH's inode hint, after setting it to VALUE
hint() {
	python3 - "$@" <<'EOF'
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
if len(sys.argv) > 2:
    fcntl.fcntl(fd, 1036, struct.pack("Q", int(sys.argv[2])))
print(struct.unpack("Q", fcntl.fcntl(fd, 1035, bytes(8)))[0])
EOF
}
# run TARGET TOOL...: the job on TARGET (its hint reset first); sets CALLS
# to the number of F_SET_RW_HINT and F_SET_FILE_RW_HINT calls, RC, and
# HINT to TARGET's hint afterwards
run() {
	local target=$1; shift
	hint "$target" 0 >/dev/null
	strace -f -qq -e trace=fcntl -o st.txt "$@" >out.txt 2>err.txt
	RC=$?
	CALLS="$(grep -c "fcntl([0-9]*, $F_SET_RW_HINT " st.txt) $(grep -c "fcntl([0-9]*, $F_SET_FILE_RW_HINT " st.txt)"
	HINT=$(hint "$target")
}
truncate -s 1m f.0 f.1
n=1
for h in none short medium long extreme; do
	for rw in write read; do
		for t in fio iodig; do
			tool=(fio)
			[ $t = iodig ] && tool=("$IODIG" run --no-probes --no-save)
			run f.0 "${tool[@]}" --name=w --filename=f.0 --rw=$rw --bs=4k --size=256k \
				--write_hint=$h
			eval "$t=\"\$RC \$CALLS \$HINT\""
		done
		check "$h $rw: rc, F_SET_RW_HINT and F_SET_FILE_RW_HINT calls, the file's hint: iodig '$iodig', fio '$fio'" \
			[ "$iodig" = "$fio" -a "$iodig" = "0 1 0 $n" ]
	done
	n=$((n + 1))
done
# several files: each one's; without the option and with null: none
for args in "--filename=f.0:f.1 --write_hint=short" "--filename=f.0" \
	    "--filename=f.0 --ioengine=null --write_hint=long"; do
	run f.0 fio --name=w --rw=write --bs=4k --size=256k $args; fio="$RC $CALLS $HINT"
	run f.0 "$IODIG" run --no-probes --no-save --name=w --rw=write --bs=4k --size=256k $args
	check "'$args': iodig '$RC $CALLS $HINT', fio '$fio'" [ "$RC $CALLS $HINT" = "$fio" ]
done
check "f.1 has the hint too: $(hint f.1)" [ "$(hint f.1)" = 2 ]
# a block device: the device inode's hint
run "$LOOP" fio --name=w --filename="$LOOP" --rw=write --bs=4k --size=256k --write_hint=medium
fio="$RC $CALLS $HINT"
run "$LOOP" "$IODIG" run --no-probes --no-save --name=w --filename="$LOOP" --rw=write --bs=4k \
	--size=256k --write_hint=medium
check "block device: iodig '$RC $CALLS $HINT', fio '$fio'" [ "$RC $CALLS $HINT" = "$fio" -a "$fio" = "0 1 0 3" ]
# direct=1: a hint per open file, which the kernel has not had since 5.17
run f.0 fio --name=w --filename=f.0 --rw=write --bs=4k --size=256k --direct=1 \
	--write_hint=long --output-format=json
fio="$RC $CALLS $(sed -n '/^{/,$p' out.txt | jqr '.jobs[0].error')"
run f.0 "$IODIG" run --no-probes --no-save --name=w --filename=f.0 --rw=write --bs=4k \
	--size=256k --direct=1 --write_hint=long --output-format=json
iodig="$RC $CALLS $(sed -n '/^{/,$p' out.txt | jqr '.jobs[0].error')"
if [ "$fio" = "0 0 1 0" ]; then
	skip "this kernel takes F_SET_FILE_RW_HINT"
fi
check "direct=1: rc, calls, JSON error: iodig '$iodig', fio '$fio'" [ "$iodig" = "$fio" -a "$fio" = "1 0 1 22" ]
check "direct=1: iodig says why" grep -q "F_SET_FILE_RW_HINT: Invalid argument (Linux 5.17" err.txt
refused "write_hint=bogus" "option 'write_hint': 'bogus' is not one of none, short, medium, long, extreme" \
	--rw=write --filename=$TMP/f --write_hint=bogus
done_testing
