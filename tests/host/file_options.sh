# fio's file options against fio 3.33, each run by both in its own empty directory: filename_format, fallocate's modes (size and blocks of a writing job's new file), nrfiles and filename=a:b\:c over several files with file_service_type, unlink, create_only, overwrite, create_on_open, file_append, allow_file_create=0, fill_device; the same files (names, sizes) and I/O counts, and the same refusals.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "needs fio"
make_loop 4 || skip "cannot create a loop device"
files() { (cd "$1" && find . -type f -printf '%P %s\n' | sort | tr '\n' ' '); }
ios() { jqr '[.jobs[] | select(.jobname) | "\(.jobname) \(.read.total_ios) \(.write.total_ios)"] | join(",")' "$1"; }

# both CASE SETUP JOB-OPTIONS...: runs iodig and fio on the same job, each
# in a new directory where SETUP (a shell command) ran first; compares the
# files left and the I/O counts.
both() {
	local name=$1 setup=$2; shift 2
	mkdir -p "$TMP/$name/i" "$TMP/$name/f"
	(cd "$TMP/$name/i" && eval "$setup" && "$IODIG" run --no-probes --no-save \
		--output-format=json "$@" >../i.json 2>../i.err)
	echo $? >"$TMP/$name/i.rc"
	(cd "$TMP/$name/f" && eval "$setup" && fio --output-format=json "$@" 2>../f.err |
		sed -n '/^{/,$p' >../f.json)
	echo "${PIPESTATUS[0]}" >"$TMP/$name/f.rc"
	check "$name: iodig ran (exit $(cat "$TMP/$name/i.rc"): $(head -c 300 "$TMP/$name/i.err"))" \
		[ "$(cat "$TMP/$name/i.rc")" = 0 ]
	check "$name: same files: $(files "$TMP/$name/i") vs $(files "$TMP/$name/f")" \
		[ "$(files "$TMP/$name/i")" = "$(files "$TMP/$name/f")" ]
	check "$name: same I/O counts: $(ios "$TMP/$name/i.json") vs $(ios "$TMP/$name/f.json")" \
		[ "$(ios "$TMP/$name/i.json")" = "$(ios "$TMP/$name/f.json")" ]
}

both format : --name=ff --filename_format='d.$jobname.$jobnum.$filenum' --numjobs=2 \
	--rw=write --bs=4k --size=256k --name=g --filename_format='x$filenum' --rw=read --size=128k
both unlink : --name=u --rw=write --bs=4k --size=256k --unlink=1 --name=k --rw=read --size=64k
both create_only : --name=c --rw=read --bs=4k --size=256k --create_only=1
both overwrite : --name=o --rw=randwrite --bs=4k --size=256k --overwrite=1
both create_on_open : --name=c --rw=write --bs=4k --size=128k --create_on_open=1
both file_append 'head -c 65536 /dev/zero >a.0.0' --name=a --rw=write --bs=4k --size=64k --file_append=1
both stats : --name=s --rw=write --size=64k --stats=0 --name=t --rw=write --size=64k
# Several files per job: each I/O to the file file_service_type picks, each file its own offsets.
both nrfiles : --name=m --nrfiles=3 --rw=read --bs=4k --size=192k --name=w --nrfiles=4 \
	--rw=randwrite --bs=4k --size=256k --ioengine=io_uring --iodepth=4
both filename_list : --name=l --filename='a:b\:c:d' --rw=write --bs=4k --size=96k \
	--ioengine=libaio --iodepth=2
both service_random : --name=r --nrfiles=3 --rw=read --bs=4k --filesize=64k \
	--file_service_type=random --numjobs=2
both service_sequential : --name=s --nrfiles=2 --rw=randread --bs=4k --size=64k \
	--file_service_type=sequential --ioengine=io_uring --registerfiles=1 --iodepth=2
# Made empty by the job's open: each file's size shows the writes reached it.
both spread_writes : --name=p --nrfiles=3 --rw=write --bs=4k --size=192k --create_on_open=1 \
	--name=q --nrfiles=2 --rw=randwrite --bs=4k --size=64k --create_on_open=1 \
	--ioengine=libaio --iodepth=4 --norandommap=0
both fill_device : --name=fd --filename="$LOOP" --rw=write --bs=64k --fill_device=1 --direct=1

# fallocate: a writing job's new file, its size and allocated blocks as fio leaves them.
blocks() { (cd "$1" && find . -type f -printf '%P %s %b\n' | sort | tr '\n' ' '); }
for mode in none native posix keep truncate 0 1; do
	both "falloc_$mode" : --name=fa --rw=write --bs=4k --size=256k --create_only=1 --fallocate=$mode
	check "fallocate=$mode: same size and blocks: $(blocks "$TMP/falloc_$mode/i") vs $(blocks "$TMP/falloc_$mode/f")" \
		[ "$(blocks "$TMP/falloc_$mode/i")" = "$(blocks "$TMP/falloc_$mode/f")" ]
done

# A missing file with allow_file_create=0: both refuse to run.
mkdir -p "$TMP/nocreate" && cd "$TMP/nocreate" || exit 1
"$IODIG" run --no-probes --no-save --name=n --rw=read --size=64k --allow_file_create=0 >/dev/null 2>"$TMP/n.err"
rc=$?
fio --name=n --rw=read --size=64k --allow_file_create=0 >/dev/null 2>&1
frc=$?
check "allow_file_create=0: iodig refuses (exit $rc), as fio (exit $frc)" [ "$rc" != 0 -a "$frc" != 0 ]
check "allow_file_create=0: the message says why" grep -q "allow_file_create=0" "$TMP/n.err"
check "allow_file_create=0: no file made" [ -z "$(ls -A "$TMP/nocreate")" ]

# openfiles below the job's files: taken (files open and close as fio's,
# tests/host/openfiles_fio.sh), but refused saying why with what iodig
# does on every file outside the file service (here lockfile); taken for
# a file-operation engine, which holds no file open between operations.
(cd "$TMP" && "$IODIG" run --no-probes --no-save --name=o --ioengine=psync --nrfiles=4 \
	--filesize=4k --openfiles=2 >/dev/null 2>"$TMP/o.err")
check "psync, openfiles=2 of 4 files: taken ($(head -2 "$TMP/o.err"))" [ ! -s "$TMP/o.err" ]
(cd "$TMP" && "$IODIG" run --no-probes --no-save --name=o --ioengine=psync --nrfiles=4 \
	--filesize=4k --openfiles=2 --rw=write --lockfile=exclusive >/dev/null 2>"$TMP/o.err")
check "psync, openfiles=2 of 4 files, lockfile: refused saying why" \
	grep -q "openfiles=2 below the job's 4 files.*lockfile" "$TMP/o.err"
(cd "$TMP" && "$IODIG" run --no-probes --no-save --name=o --ioengine=filestat --nrfiles=4 \
	--filesize=4k --openfiles=2 >/dev/null 2>"$TMP/o.err")
check "filestat, openfiles=2 of 4 files: taken ($(head -2 "$TMP/o.err"))" [ ! -s "$TMP/o.err" ]
done_testing
