#!/bin/bash
# Job files from other projects as fio 3.33 reads them, against fio on the same files: a value followed by "// note" (only ';' and '#' are comments), section headers with text after ']' or blanks inside ("[fio-test]G" is the job "fio-test]"), write_*_log into a directory that does not exist (fio goes on, exit 0), continue_on_error=verify with verify_only on a file without the data (exit status, error, a real message), io_size=N% and size=0%, filesize=N% and size=N% over 100% (fio's 2^64-1-N bytes, failing at ftruncate), and the order of numjobs clones (0, then N-1 .. 1) in JSON, text and jobname.K.0 files.
# timeout: 300
source tests/host/lib.sh
need_fio3
cd "$TMP" || exit 1

# A run's jobs: name, group, read and write I/Os and bytes, error.
JOBS='[.jobs[] | [.jobname, .groupid, .read.total_ios, .read.io_bytes, .write.total_ios, .error]]'
same_text() { [ -s "$2" ] && cmp -s "$1" "$2"; }
iodigj() { "$IODIG" run --no-probes --no-save --output-format=json "$@" 2>"$TMP/iodig.err" >"$TMP/i.json"; }
# same_run NAME FILE: fio and iodig run FILE alike (exit status, jobs)
same_run() {
	local name=$1 frc irc
	fio --output-format=json "$2" 2>"$TMP/fio.err" | sed -n '/^{/,$p' >"$TMP/f.json"
	frc=${PIPESTATUS[0]}
	iodigj "$2"
	irc=$?
	check "$name: exit status as fio's ($irc vs $frc): $(head -c 200 "$TMP/iodig.err")" [ "$irc" = "$frc" ]
	check "$name: jobs as fio's ($(jq -c "$JOBS" "$TMP/i.json" 2>/dev/null) vs $(jq -c "$JOBS" "$TMP/f.json"))" \
		[ -s "$TMP/f.json" -a "$(jq -c "$JOBS" "$TMP/i.json" 2>/dev/null)" = "$(jq -c "$JOBS" "$TMP/f.json")" ]
}
# same_parse NAME FILE: fio --parse-only and iodig --parse-only agree
same_parse() {
	fio --parse-only "$2" >/dev/null 2>&1
	local frc=$?
	"$IODIG" run --parse-only "$2" >/dev/null 2>"$TMP/iodig.err"
	local irc=$?
	check "$1: --parse-only accepts as fio does (iodig $irc, fio $frc): $(head -c 200 "$TMP/iodig.err")" \
		[ "$((irc == 0))" = "$((frc == 0))" ]
}

truncate -s 1m data

# 1. only ';' and '#' start a comment; "// note" stays in the value, and
# a number option reads the number before it (fio's reading)
printf '[t]\nfilename=%s/data\nrw=read\ndirect=0 // note\nbs=8k // note\nsize=128k // note\niodepth=2 // note\nruntime=60 ; note\nnumjobs=1 # note\n' "$TMP" >c1.fio
same_parse "value // note" c1.fio
same_run "value // note" c1.fio
printf '[t]\nfilename=%s/data\nrw=read // note\n' "$TMP" >c2.fio
same_parse "rw=read // note (fio refuses the word)" c2.fio

# 2. a section is named by the header between its first and last
# characters, blanks kept
printf '[fio-test]G\nfilename=%s/data\nsize=64k\n[a] b\nfilename=%s/data\nsize=32k\n[ a ]\nfilename=%s/data\nsize=16k\n' "$TMP" "$TMP" "$TMP" >h.fio
same_parse "section headers" h.fio
same_run "section headers" h.fio
names() { grep -o '^.*: (groupid=' | sed 's/: (groupid=$//'; }
fio h.fio 2>/dev/null | names >f.txt
"$IODIG" run --no-probes --no-save h.fio 2>/dev/null | names >i.txt
check "section headers: text report's job names as fio's ($(paste -sd'|' i.txt) vs $(paste -sd'|' f.txt))" \
	same_text i.txt f.txt

# 3. a log into a directory that does not exist: fio says "fopen log"
# and the job goes on
for log in write_bw_log write_lat_log write_iops_log write_hist_log; do
	printf '[t]\nfilename=%s/data\nsize=64k\n%s=%s/nonexistent/dir/x\nlog_hist_msec=10\n' "$TMP" "$log" "$TMP" >l.fio
	same_run "$log in a missing directory" l.fio
	check "$log in a missing directory: iodig names the file ($(head -c 200 "$TMP/iodig.err"))" \
		grep -q "nonexistent/dir/x_.*log.*No such file or directory" "$TMP/iodig.err"
done

# 4. continue_on_error=verify with verify_only on a file that never had
# the job's data, zeros or other bytes: fio checks every block, counts
# each bad one, reports EILSEQ and exits 0 (its write figures for
# verify_only are not compared here)
VJOBS='[.jobs[] | [.jobname, .read.total_ios, .error, .total_err, .first_error]]'
for data in zeros random; do
	rm -f v.dat
	if [ $data = zeros ]; then truncate -s 64k v.dat; else head -c 64k /dev/urandom >v.dat; fi
	printf '[t]\nfilename=%s/v.dat\nsize=64k\nrw=write\nverify=md5\nverify_only=1\ncontinue_on_error=verify\n' "$TMP" >v.fio
	cp v.dat v.orig
	fio --output-format=json v.fio 2>/dev/null | sed -n '/^{/,$p' >f.json
	frc=${PIPESTATUS[0]}
	cp v.orig v.dat
	iodigj v.fio
	irc=$?
	check "verify_only, $data: exit status as fio's ($irc vs $frc)" [ "$irc" = "$frc" ]
	check "verify_only, $data: reads and errors as fio's ($(jq -c "$VJOBS" i.json) vs $(jq -c "$VJOBS" f.json))" \
		[ -s f.json -a "$(jq -c "$VJOBS" i.json)" = "$(jq -c "$VJOBS" f.json)" ]
	check "verify_only, $data: iodig says what failed ($(head -c 300 "$TMP/iodig.err"))" \
		grep -q "job 't': .*[a-z].*verify" "$TMP/iodig.err"
done

# 5. percentages: io_size=N% of the size the job resolved, 0% as not
# given, over 100% refused
pcase=0
for opts in "io_size=50%" "size=0%" "size=25% io_size=50%" "io_size=0%" \
	    "offset=256k io_size=50%" "size=512k io_size=50% loops=2" \
	    "io_size=30% bs=64k" "io_size=50% numjobs=2 offset_increment=25%" \
	    "size=0% io_size=25% rw=randread"; do
	pcase=$((pcase + 1))
	{ printf '[t]\nfilename=%s/data\nrw=read\n' "$TMP"; printf '%s\n' $opts; } >p$pcase.fio
	same_parse "$opts" p$pcase.fio
	same_run "$opts" p$pcase.fio
done
printf '[t]\nfilename=%s/data\nio_size=200%%\n' "$TMP" >p0.fio
same_parse "io_size=200%" p0.fio

# 5b. where fio takes no percentage (filesize=, size= over 100%) it takes
# "N%" as 2^64-1-N bytes: a reading job fails at the layout's ftruncate
# (EINVAL), fio's having truncated the file to nothing, iodig's leaving it
# whole.  Only reading jobs run here: fio's writing ones fill the
# filesystem until ENOSPC.
for opt in "filesize=50%" "size=200%" "size=150%"; do
	printf '[t]\nfilename=%s/raw\nrw=read\n%s\n' "$TMP" "$opt" >r.fio
	same_parse "$opt" r.fio
	head -c 64k /dev/urandom >raw.orig
	cp raw.orig raw
	fio --output-format=json r.fio 2>"$TMP/fio.err" | sed -n '/^{/,$p' >f.json
	frc=${PIPESTATUS[0]}
	cp raw.orig raw
	iodigj r.fio
	irc=$?
	check "$opt: both fail (iodig $irc, fio $frc, error $(jq '.jobs[0].error' f.json 2>/dev/null))" \
		[ "$irc" != 0 -a "$frc" != 0 ]
	check "$opt: at ftruncate with EINVAL as fio ($(head -c 200 "$TMP/iodig.err") / $(head -c 200 "$TMP/fio.err"))" \
		grep -q "ftruncate.*Invalid argument" "$TMP/iodig.err" && grep -q "func=ftruncate, error=Invalid argument" "$TMP/fio.err"
	check "$opt: iodig leaves the file as it was" cmp -s raw raw.orig
done

# 6. clones: fio makes clone 0, then numjobs-1 down to 1; with
# offset_increment on one file each clone reads a different length
printf '[a]\nfilename=%s/d64\nrw=read\nnumjobs=4\noffset_increment=16k\n[b]\nfilename=%s/d64\nrw=read\nnumjobs=3\noffset_increment=16k\n' "$TMP" "$TMP" >n.fio
truncate -s 64k d64
same_run "clone order" n.fio
amounts() { grep -oE '^ *read: .*\([0-9.]+[KMG]iB/' | grep -oE '\([0-9.]+[KMG]iB/'; }
fio n.fio 2>/dev/null | amounts >f.txt
"$IODIG" run --no-probes --no-save n.fio 2>/dev/null | amounts >i.txt
check "clone order: text report as fio's ($(paste -sd' ' i.txt) vs $(paste -sd' ' f.txt))" \
	same_text i.txt f.txt
# each clone's own file, jobname.K.0, laid out to its offset + size
mkdir fdir idir
printf '[w]\nrw=write\nsize=16k\nnumjobs=3\noffset_increment=16k\n' >w.fio
(cd fdir && fio --output-format=json ../w.fio 2>/dev/null | sed -n '/^{/,$p' >../f.json)
(cd idir && "$IODIG" run --no-probes --no-save --output-format=json ../w.fio 2>/dev/null >../i.json)
files() { (cd "$1" && stat -c '%n %s' w.* | sort); }
check "clone files: names and sizes as fio's ($(files idir | paste -sd' ') vs $(files fdir | paste -sd' '))" \
	[ "$(files idir)" = "$(files fdir)" ]
check "clone files: jobs as fio's ($(jq -c "$JOBS" i.json) vs $(jq -c "$JOBS" f.json))" \
	[ "$(jq -c "$JOBS" i.json)" = "$(jq -c "$JOBS" f.json)" ]
done_testing
