# Malformed job files, unknown options and impossible values each give one clear error naming file:line or the option, a non-zero exit, and no output file.
source tests/host/lib.sh
expect_error() { # expect_error "pattern" args...
	local pattern=$1; shift
	"$IODIG" run --no-probes --output="$TMP/out" "$@" >"$TMP/stdout" 2>"$TMP/err"
	local rc=$?
	check "$* -> exit non-zero (got $rc)" [ "$rc" -ne 0 ]
	check "$* -> message matches '$pattern': $(head -c 300 "$TMP/err")" grep -q -- "$pattern" "$TMP/err"
	check "$* -> one line" [ "$(wc -l <"$TMP/err")" -eq 1 ]
	check "$* -> no output file" [ ! -e "$TMP/out" ]
}
printf '[global]\nrw=randread\n[job1]\nbs=4k\nfrobnicate=3\n' >"$TMP/unknown.fio"
expect_error "unknown.fio:5.*frobnicate" "$TMP/unknown.fio"
printf '[job1\nrw=read\n' >"$TMP/header.fio"
expect_error "header.fio:1" "$TMP/header.fio"
printf 'rw=read\n[job1]\n' >"$TMP/early.fio"
expect_error "early.fio:1" "$TMP/early.fio"
printf '[j]\nrwmixread=101\nrw=randrw\nsize=1m\nfilename=%s/f\n' "$TMP" >"$TMP/mix.fio"
expect_error "rwmixread" "$TMP/mix.fio"
expect_error "iodepth" --name=x --filename="$TMP/f" --size=1m --iodepth=0
expect_error "bs" --name=x --filename="$TMP/f" --size=4k --bs=8k
expect_error "unknown option '--bogus'" --name=x --bogus=1
expect_error "ioengine" --name=x --filename="$TMP/f" --size=1m --ioengine=nosuch
expect_error "$TMP/missing.fio" "$TMP/missing.fio"
expect_error "directory" --name=x --filename="$TMP" --size=1m
# fio makes a file name's missing directories, but refuses a directory=
# that does not exist (file_dirs_fio.sh)
expect_error "does not exist" --name=x --directory="$TMP/nodir" --size=1m
expect_error "unknown probe family 'bogus'" --probes=bogus --name=x --filename="$TMP/f" --size=1m
expect_error "unknown probe family ''" --probes=+ --name=x --filename="$TMP/f" --size=1m
expect_error "give either family names or +/- changes" --probes=block,-sched --name=x \
	--filename="$TMP/f" --size=1m
expect_error "option --sample-freq: '0'" --sample-freq=0 --name=x --filename="$TMP/f" --size=1m
expect_error "option --sample-freq: '10000'" --sample-freq=10000 --name=x --filename="$TMP/f" \
	--size=1m
for n in 0 3 128 x ''; do
	expect_error "option --block-sample: '$n' is not a power of two from 1 to 64" \
		--block-sample="$n" --name=x --filename="$TMP/f" --size=1m
done
for n in 0 19 60001 x ''; do
	expect_error "option --probe-toggle: '$n' is not a number of milliseconds from 20 to 60000" \
		--probe-toggle="$n" --name=x --filename="$TMP/f" --size=1m
done
for n in -1 60001 x 2.5 ""; do
	expect_error "option --probe-toggle-settle: '$n' is not a number of milliseconds from 0 to 60000" \
		--probe-toggle=100 --probe-toggle-settle="$n" --name=x --filename="$TMP/f" --size=1m
done
expect_error "option --probe-toggle-settle: only with --probe-toggle" \
	--probe-toggle-settle=10 --name=x --filename="$TMP/f" --size=1m
expect_error "option --probe-toggle: there are no probes to toggle with --no-probes" \
	--probe-toggle=100 --no-probes --name=x --filename="$TMP/f" --size=1m
expect_error "output-format" --output-format=xml --name=x --filename="$TMP/f" --size=1m
if [ "$(id -u)" -eq 0 ]; then
	make_loop 8 && expect_error "too small" --name=x --filename="$LOOP" --size=64m --rw=read
fi
check "no file created by failed jobs" [ ! -e "$TMP/f" ] 
done_testing
