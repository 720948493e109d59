#!/bin/bash
# Short real runs of a third of fio's own job files (the corpus,
# $IODIG_FIO_CORPUS, default /work/shared/fio-corpus; sources in its
# SOURCES.tsv): every third file, by name, of those both fio 3.33 and
# iodig accept with --parse-only (IODIG_CORPUS_THIRD picks which third).  Each is shrunk the same way for both
# tools (below) and run by each; the I/Os and bytes of every direction,
# summed over the jobs, must be equal.  A file fio cannot run here (a
# device, a zoned disk, a log it reads) is listed and left out; one that
# fio runs and iodig does not fails.
#
# Shrinking (the copy, never the corpus): every job's files go into a
# scratch directory on tmpfs (a filename= keeps only its base names, so
# jobs that share a file still do; directory= and the size options are
# dropped, but a filesize= of at most 64k stays), size=2m, loops=1, no
# run time, ramp or start delay, at most 2
# clones, no CPU pinning and no commands run before or after; everything
# else (engine, rw, bs, depth, verify, rates, ...) stays as its authors
# wrote it.  A job whose amount of I/O depends on timing (exitall,
# exit_what, randrepeat=0) must run in iodig, without its counts compared.
# timeout: 900
. "$(dirname "$0")/lib.sh"
need_root
CORPUS=${IODIG_FIO_CORPUS:-/work/shared/fio-corpus}
# which third runs (n % 3 of the files both tools parse), or "all": CI
# runs the third 1; the others by hand, each ~15 minutes
PICK=${IODIG_CORPUS_THIRD:-1}
case $PICK in 0|1|2|all) ;; *) echo "IODIG_CORPUS_THIRD=$PICK: 0, 1, 2 or all" >&2; exit 2 ;; esac
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
[ -d "$CORPUS" ] || skip "no fio job file corpus at $CORPUS (set IODIG_FIO_CORPUS)"
fio --version | grep -q '^fio-3\.' || skip "fio $(fio --version) is not fio 3.x"

# shrink JOBFILE: the job file as both tools run it here
shrink() {
	awk -v dir="$W/d" '
	# a file size of a few KiB is the job'"'"'s point (the file-operation
	# engines: one operation per file) and already small
	function small_size(l,   v) {
		v = l; sub(/^[^=]*=[ \t]*/, "", v); sub(/[ \t]+[;#].*$/, "", v)
		return v ~ /^[0-9]+[kK]?$/ && v * (v ~ /[kK]$/ ? 1024 : 1) <= 65536
	}
	function overrides() {
		print "directory=" dir
		print "size=2m"
		print "loops=1"
		print "time_based=0"
		print "runtime=0"
		print "ramp_time=0"
		print "startdelay=0"
		if (clones > 2) print "numjobs=2"
	}
	/^[ \t]*\[.*\][ \t]*$/ {
		if (in_section) overrides()
		in_section = 1; clones = 0
		print; next
	}
	{
		line = $0; sub(/^[ \t]+/, "", line)
		key = line; sub(/[ \t]*[=].*$/, "", key); sub(/[ \t]+$/, "", key)
		if (key == "filename") {
			v = line; sub(/^[^=]*=[ \t]*/, "", v); sub(/[ \t]+[;#].*$/, "", v)
			n = split(v, part, ":"); v = ""
			for (i = 1; i <= n; i++) {
				sub(/^.*\//, "", part[i])
				v = v (i > 1 ? ":" : "") part[i]
			}
			print "filename=" v; next
		}
		if (key == "filesize" && small_size(line)) { print; next }
		if (key ~ /^(directory|size|filesize|io_size|io_limit|offset|offset_increment|runtime|time_based|ramp_time|startdelay|loops|fill_device|cpus_allowed|cpumask|cpus_allowed_policy|numa_cpu_nodes|numa_mem_policy|exec_prerun|exec_postrun|ioscheduler)$/)
			next
		if (key == "numjobs") {
			v = line; sub(/^[^=]*=[ \t]*/, "", v); clones = v + 0
			if (clones > 2) next
		}
		print
	}
	END { if (in_section) overrides() }' "$1"
}

# has_kernel_section JSON: iodig's report names the probes it ran
has_kernel_section() { jq -e '.iodig.kernel.probes | length > 0' "$1" >/dev/null; }

# totals JSON: "read_ios read_bytes write_ios write_bytes trim_ios trim_bytes"
totals() {
	jq -r '[.jobs[] | [.read.total_ios, .read.io_bytes, .write.total_ios,
		.write.io_bytes, .trim.total_ios, .trim.io_bytes]] |
		transpose | map(add) | @tsv' "$1" 2>/dev/null | tr '\t' ' '
}

W=$TMP/w
n=0 ran=0 fio_cannot=0 picked=0
for f in "$CORPUS"/*.fio; do
	name=$(basename "$f")
	# ${VAR}s would need values this test would have to guess
	grep -q '\${' "$f" && continue
	grep -Eq '^[[:space:]]*include[[:space:]]' "$f" && continue
	rm -rf "$W" && mkdir -p "$W/d"
	shrink "$f" >"$W/job.fio"
	(cd "$W" && timeout 10 fio --parse-only job.fio >/dev/null 2>&1) || continue
	(cd "$W" && timeout 10 "$IODIG" run --parse-only job.fio >/dev/null 2>&1) || continue
	n=$((n + 1))
	[ "$PICK" = all ] || [ $((n % 3)) = "$PICK" ] || continue
	picked=$((picked + 1))
	(cd "$W" && timeout 20 fio --output-format=json --output=fio.json job.fio \
		>fio.out 2>&1)
	frc=$?
	want=$(totals "$W/fio.json")
	if [ "$frc" != 0 ] || [ -z "$want" ]; then
		echo "left out: $name: fio cannot run it here (exit $frc): $(grep -m1 -v '^$' "$W/fio.out" | head -c 160)"
		fio_cannot=$((fio_cannot + 1))
		continue
	fi
	rm -rf "$W/d" && mkdir "$W/d"
	(cd "$W" && timeout 20 "$IODIG" run --no-save --no-progress --output-format=json \
		--output=iodig.json job.fio >iodig.out 2>&1)
	irc=$?
	got=$(totals "$W/iodig.json")
	if [ "$irc" != 0 ] || [ -z "$got" ]; then
		fail "$name: fio ran it, iodig exit $irc: $(grep -m1 -v '^$' "$W/iodig.out" | head -c 200)"
		continue
	fi
	ran=$((ran + 1))
	check "$name: iodig's report has its kernel section" has_kernel_section "$W/iodig.json"
	if grep -Eq '^[[:space:]]*(exitall|exit_what|randrepeat[[:space:]]*=[[:space:]]*(0|false))' "$f"; then
		echo "ran: $name: iodig [$got], fio [$want]: timing decides the counts, not compared"
		continue
	fi
	check "$name: read/write/trim ios and bytes iodig [$got], fio [$want]" [ "$got" = "$want" ]
done
echo "corpus: $n files both tools parse, $picked picked, $fio_cannot left out (fio cannot run them here), $ran run by both"
check "the corpus's third $PICK ran in both tools (at least 20 files; ran $ran)" [ "$ran" -ge 20 ]
done_testing
