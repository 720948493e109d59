#!/bin/bash
# Edges of real job files against fio 3.33 on the same job: offset=N% and offset_increment=N% of a file not there yet (fio takes shares of size 0: offset 0, the file created size= long; without size= or with size=N% the job fails alone, err=22; a file an earlier job of the file makes has the size that job's layout gives it, and a clone of numjobs the size the clones set up before it gave the file they share: its offsets and the file's final size), an empty section name "[]" (a job without a name: text report, JSON without "jobname", its files and logs), filesize=N% and size= over 100% (that job alone fails with err=22 at exit 1, the others run; iodig leaves the file whole), and verify_only's report (no latency_target figures for a writing job, which only replays its writes, even without verify=).
# timeout: 300
source tests/host/lib.sh
need_fio3
cd "$TMP" || exit 1

JOBS='[.jobs[] | [.jobname, .error, .read.io_bytes, .write.io_bytes]]'
# iodig's A equals fio's B, which is not empty
same() { [ -n "$2" ] && [ "$1" = "$2" ]; }
same_file() { [ -s "$2" ] && cmp -s "$1" "$2"; }
# the data files a run left in its directory, with their sizes
files() { (cd "$1" && find . -maxdepth 1 -type f ! -name trace ! -name '*.log' -printf '%P %s\n' | sort); }
# pair NAME ARGS...: iodig and fio run the same job (a file or options) in
# empty directories $TMP/NAME/i and $TMP/NAME/f; JSON, stderr and exit
# status beside them (NAME/i.json, NAME/i.err, $irc ...)
pair() {
	local name=$1; shift
	rm -rf "$TMP/$name"; mkdir -p "$TMP/$name/i" "$TMP/$name/f"
	# SEED=BYTES: both start with a file F of that many bytes
	if [ -n "${SEED:-}" ]; then
		head -c "$SEED" /dev/zero >"$TMP/$name/i/F"
		cp "$TMP/$name/i/F" "$TMP/$name/f/F"
	fi
	(cd "$TMP/$name/i" && exec "$IODIG" run --no-probes --no-save --output-format=json "$@" \
		>../i.json 2>../i.err)
	irc=$?
	(cd "$TMP/$name/f" && exec fio --output-format=json "$@" >../f.out 2>../f.err)
	frc=$?
	sed -n '/^{/,$p' "$TMP/$name/f.out" >"$TMP/$name/f.json"
}
# same_pair NAME WHAT: the pair NAME ran alike (exit status, jobs, files made)
same_pair() {
	local d=$TMP/$1
	check "$2: exit status as fio's ($irc vs $frc): $(head -c 300 "$d/i.err")" [ "$irc" = "$frc" ]
	check "$2: jobs as fio's ($(jq -c "$JOBS" "$d/i.json" 2>/dev/null) vs $(jq -c "$JOBS" "$d/f.json"))" \
		same "$(jq -c "$JOBS" "$d/i.json" 2>/dev/null)" "$(jq -c "$JOBS" "$d/f.json")"
	check "$2: files as fio's ($(files "$d/i" | paste -sd' ') vs $(files "$d/f" | paste -sd' '))" \
		same "$(files "$d/i")" "$(files "$d/f")"
}

# 1. offset=N% of a file that does not exist: N% of 0.  With a trace of
# the I/O where one clone writes it.
n=0
for opts in "--filename=nf --rw=write --size=256k --offset=50%" \
	    "--filename=nf --rw=read --size=128k --offset=50%" \
	    "--filename=nf --rw=randwrite --size=128k --offset=50% --io_size=50%" \
	    "--filename=nf --rw=write --filesize=128k --offset=50%" \
	    "--rw=write --size=128k --offset=50% --nrfiles=2"; do
	n=$((n + 1))
	pair off$n --name=t $opts --write_iolog=trace
	same_pair off$n "$opts"
	check "$opts: fio's offsets ($(diff <(iolog_ios "$TMP/off$n/i/trace" 2>&1) <(iolog_ios "$TMP/off$n/f/trace" 2>&1) | head -4 | tr '\n' ' '))" \
		same "$(iolog_ios "$TMP/off$n/i/trace" 2>/dev/null)" "$(iolog_ios "$TMP/off$n/f/trace")"
done
# without a size, or with size=N% of it, fio cannot size the new file:
# the job fails alone at setup (err=22, "you need to specify size=")
# (one failing job a file: fio's exit status counts them, iodig's is 1)
for opt in "rw=read size=50%" "rw=write"; do
	{ printf '[a]\nfilename=nf\n'; printf '%s\n' $opt; printf '[c]\nfilename=other\nsize=16k\n'; } >nosize.fio
	pair nosize "$TMP/nosize.fio"
	check "$opt, no file: exit status as fio's ($irc vs $frc)" [ "$irc" = "$frc" ]
	check "$opt, no file: jobs as fio's ($(jq -c "$JOBS" nosize/i.json 2>/dev/null) vs $(jq -c "$JOBS" nosize/f.json))" \
		same "$(jq -c "$JOBS" nosize/i.json 2>/dev/null)" "$(jq -c "$JOBS" nosize/f.json)"
	check "$opt, no file: iodig says what fio says ($(head -c 300 nosize/i.err))" \
		grep -q "job 'a': nf does not exist.*you need to specify size=" nosize/i.err
done
# each clone's own file, jobname.K.0, not there either
for opts in "--rw=write --size=128k --offset=25% --numjobs=2" \
	    "--rw=read --size=128k --offset=25% --offset_increment=10% --numjobs=2 --bs=8k"; do
	n=$((n + 1))
	pair off$n --name=t $opts
	same_pair off$n "$opts"
done

# a file an earlier job of the file makes: fio sets up every job's files
# in order before any runs, so a later job sees it at the size the
# earlier layout gives it (sized, or a share of it)
n=0
for later in "rw=read" "rw=read offset=50%" "rw=randread size=50%" "rw=write offset_increment=25% numjobs=2 size=32k"; do
	n=$((n + 1))
	{ printf '[a]\nfilename=f\nrw=write\nsize=128k\n[b]\nstonewall\nfilename=f\nwrite_iolog=trace\n'; printf '%s\n' $later; } >earlier$n.fio
	pair earlier$n "$TMP/earlier$n.fio"
	same_pair earlier$n "$later after a job that makes the file"
	check "$later after a job that makes the file: fio's offsets ($(diff <(iolog_ios "$TMP/earlier$n/i/trace" 2>&1) <(iolog_ios "$TMP/earlier$n/f/trace" 2>&1) | head -4 | tr '\n' ' '))" \
		same "$(iolog_ios "$TMP/earlier$n/i/trace" 2>/dev/null | sort)" "$(iolog_ios "$TMP/earlier$n/f/trace" | sort)"
done

# clones of one job sharing a file: fio sets them up one after another
# (clone 0, then N-1 down to 1), each taking offset=N% and
# offset_increment=N% of the file as the clones before it extended it, so
# later clones start further in and the file ends longer than shares of
# its first size give (fio: 112k and 128k where one size gives 64k)
n=0
for seed in "" 65536; do
	for opts in "--rw=write --offset=50%" "--rw=read --offset=50%" \
		    "--rw=write --offset_increment=50%" \
		    "--rw=randread --offset=25% --offset_increment=25% --numjobs=4" \
		    "--rw=write --offset=50% --io_size=32k" \
		    "--rw=write --offset=50% --offset_align=64k"; do
		n=$((n + 1))
		what="numjobs sharing F${seed:+ of $seed bytes} $opts"
		SEED=$seed pair clones$n --name=t --filename=F --size=64k --bs=16k --numjobs=3 $opts \
			--write_iolog=trace
		same_pair clones$n "$what"
		check "$what: fio's offsets ($(diff <(iolog_ios "$TMP/clones$n/i/trace" 2>&1 | sort) <(iolog_ios "$TMP/clones$n/f/trace" 2>&1 | sort) | head -4 | tr '\n' ' '))" \
			same "$(iolog_ios "$TMP/clones$n/i/trace" 2>/dev/null | sort)" "$(iolog_ios "$TMP/clones$n/f/trace" | sort)"
	done
done
# filesize= makes the file whole at clone 0's setup: the others take
# their shares of filesize, not of the missing file's 0
for opts in "--rw=write --offset=50% --numjobs=2" "--rw=read --offset_increment=25% --numjobs=3"; do
	n=$((n + 1))
	pair clones$n --name=t --filename=F --filesize=64k --bs=4k $opts --write_iolog=trace
	same_pair clones$n "filesize=64k $opts"
	check "filesize=64k $opts: fio's offsets" \
		same "$(iolog_ios "$TMP/clones$n/i/trace" 2>/dev/null | sort)" "$(iolog_ios "$TMP/clones$n/f/trace" | sort)"
done

# 2. "[]": a job without a name, beside a named one, with logs named
# after it
printf '[]\nsize=64k\nwrite_bw_log\nwrite_lat_log\n[x]\nsize=32k\n' >empty.fio
pair empty "$TMP/empty.fio"
same_pair empty '[]'
logs() { (cd "$1" && find . -maxdepth 1 -name '*.log' -printf '%P\n' | sort); }
check "[]: log files named as fio's ($(logs empty/i | paste -sd' ') vs $(logs empty/f | paste -sd' '))" \
	same "$(logs empty/i)" "$(logs empty/f)"
keys='[.jobs[] | has("jobname")]'
check "[]: JSON \"jobname\" present as in fio's ($(jq -c "$keys" empty/i.json 2>/dev/null) vs $(jq -c "$keys" empty/f.json))" \
	same "$(jq -c "$keys" empty/i.json 2>/dev/null)" "$(jq -c "$keys" empty/f.json)"
names() { grep -E '^[^ ]*: \((g|groupid)=' | sed -E 's/ \((g|groupid)=.*//'; }
(cd empty/f && rm -f ./* .[!.]* && fio "$TMP/empty.fio" 2>/dev/null) | names >f.txt
(cd empty/i && rm -f ./* .[!.]* && "$IODIG" run --no-probes --no-save "$TMP/empty.fio" 2>/dev/null) | names >i.txt
check "[]: text report's job names as fio's ($(paste -sd'|' i.txt) vs $(paste -sd'|' f.txt))" \
	same_file i.txt f.txt

# 3. filesize=N% and size= over 100%: fio's 2^64-1-N bytes.  A reading
# job fails alone at setup (fio at ftruncate, having truncated the file
# to nothing); the job beside it runs.
reported() { grep -E '^[^ ]*: \(groupid=' | sed -E 's/ \(groupid=.*//' | paste -sd'|'; }
# both run big.fio in big/i and big/f, each on its own copy of raw
pair_keep() {
	(cd "$TMP/big/i" && exec "$IODIG" run --no-probes --no-save --output-format=json "$TMP/big.fio" >../i.json 2>../i.err)
	irc=$?
	(cd "$TMP/big/f" && exec fio --output-format=json "$TMP/big.fio" >../f.out 2>../f.err)
	frc=$?
	sed -n '/^{/,$p' big/f.out >big/f.json
}
for opt in "filesize=50%" "size=200%"; do
	printf '[a]\nfilename=raw\nrw=read\n%s\n[b]\nfilename=other\nrw=read\nsize=32k\n' "$opt" >big.fio
	rm -rf big; mkdir -p big/i big/f
	head -c 64k /dev/urandom >raw.orig
	cp raw.orig big/i/raw; cp raw.orig big/f/raw
	pair_keep
	check "$opt: exit status as fio's ($irc vs $frc): $(head -c 300 big/i.err)" [ "$irc" = "$frc" ]
	check "$opt: jobs as fio's ($(jq -c "$JOBS" big/i.json 2>/dev/null) vs $(jq -c "$JOBS" big/f.json))" \
		same "$(jq -c "$JOBS" big/i.json 2>/dev/null)" "$(jq -c "$JOBS" big/f.json)"
	lt='[.jobs[] | has("latency_depth")]'
	check "$opt: the failed job's latency_target figures as fio's ($(jq -c "$lt" big/i.json 2>/dev/null) vs $(jq -c "$lt" big/f.json))" \
		same "$(jq -c "$lt" big/i.json 2>/dev/null)" "$(jq -c "$lt" big/f.json)"
	check "$opt: iodig says why, as fio at ftruncate ($(head -c 300 big/i.err))" \
		grep -q "job 'a': .*ftruncate: Invalid argument" big/i.err
	check "$opt: iodig leaves the file whole" cmp -s big/i/raw raw.orig
	cp raw.orig big/i/raw; cp raw.orig big/f/raw
	(cd big/f && fio "$TMP/big.fio" 2>/dev/null) | reported >f.txt
	(cd big/i && "$IODIG" run --no-probes --no-save "$TMP/big.fio" 2>/dev/null) | reported >i.txt
	check "$opt: text report's jobs as fio's ($(cat i.txt) vs $(cat f.txt))" \
		same_file i.txt f.txt
done
# A writing job fio runs until the filesystem is full (not run here): iodig
# fails it as fio fails the reading one (the jobs as in fio's last run
# above: a with err=22 and no I/O, b its reads).
printf '[a]\nfilename=raw\nrw=write\nfilesize=50%%\n[b]\nfilename=other\nrw=read\nsize=32k\n' >bigw.fio
rm -rf bigw; mkdir -p bigw
cp raw.orig bigw/raw
(cd bigw && exec "$IODIG" run --no-probes --no-save --output-format=json "$TMP/bigw.fio" >../bw.json 2>../bw.err)
irc=$?
check "filesize=50%, writing: fails as the reading job does (exit $irc, $(jq -c "$JOBS" bw.json 2>/dev/null) vs $(jq -c "$JOBS" big/f.json))" \
	same "$irc $(jq -c "$JOBS" bw.json 2>/dev/null)" "1 $(jq -c "$JOBS" big/f.json)"
check "filesize=50%, writing: iodig says why ($(head -c 300 bw.err))" \
	grep -q "job 'a': .*filesystem is full" bw.err
check "filesize=50%, writing: iodig leaves the file whole" cmp -s bigw/raw raw.orig

# 4. verify_only: a writing job only replays its writes, outside fio's I/O
# loop, so it has no latency_target figures; a reading one does.  Without
# verify= the writes are not done either.
lat_lines() { grep -c '^ *latency *: target='; }
LT='[.jobs[] | [has("latency_depth"), has("latency_target"), has("latency_window"), has("latency_percentile")]]'
for opts in "--rw=write --verify=md5" "--rw=randwrite --verify=crc32c" "--rw=read --verify=md5" "--rw=write"; do
	rm -rf vo; mkdir vo
	(cd vo && fio --name=v --filename=d --size=64k $opts >/dev/null 2>&1)
	cp vo/d vo.orig
	(cd vo && fio --name=v --filename=d --size=64k $opts --verify_only=1 2>/dev/null) | lat_lines >f.txt
	check "verify_only $opts: fio leaves the file as it was" cmp -s vo/d vo.orig
	(cd vo && "$IODIG" run --no-probes --no-save --name=v --filename=d --size=64k $opts --verify_only=1 2>vo.err) | lat_lines >i.txt
	check "verify_only $opts: iodig leaves the file as it was" cmp -s vo/d vo.orig
	check "verify_only $opts: latency_target lines as fio's ($(cat i.txt) vs $(cat f.txt)) $(head -c 200 vo.err)" \
		cmp -s i.txt f.txt
	(cd vo && fio --name=v --filename=d --size=64k $opts --verify_only=1 --output-format=json 2>/dev/null) | sed -n '/^{/,$p' >f.json
	(cd vo && "$IODIG" run --no-probes --no-save --name=v --filename=d --size=64k $opts --verify_only=1 --output-format=json 2>/dev/null) >i.json
	check "verify_only $opts: JSON latency_target figures as fio's ($(jq -c "$LT" i.json 2>/dev/null) vs $(jq -c "$LT" f.json))" \
		same "$(jq -c "$LT" i.json 2>/dev/null)" "$(jq -c "$LT" f.json)"
done
done_testing
