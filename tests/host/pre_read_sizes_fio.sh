#!/bin/bash
# pre_read=1 over several files as fio 3.33: each file is read with
# read(2) from the job's offset over its own bytes (filesize=LOW-HIGH gives
# each its size; filesize= with offset= reads from offset to the file's
# end), before the job's I/O.  Both tools lay out the same files with a
# write job on tmpfs, then read them with pre_read=1 under strace: per
# file, where the pre-read seeks to and how many bytes its read(2)s get
# must be fio's (the job's own reads are pread64, psync's, apart).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v strace >/dev/null || skip "needs strace"
cd "$TMP" || exit 1

# run DIR TOOL...: in DIR, TOOL lays out the job's files and reads them
# with pre_read=1; DIR.pre has "file seek-offset reads bytes" a line
run() {
	local dir=$1; shift
	rm -rf "$dir" "$dir".trace.* && mkdir "$dir"
	# shellcheck disable=SC2086 # OPTS are words
	(cd "$dir" && "$@" --name=j --bs=4k --rw=write $OPTS >/dev/null 2>&1 &&
	 strace -ff -qq -y -e trace=read,lseek -o ../"$dir.trace" \
		"$@" --name=j --bs=4k --rw=read --pre_read=1 $OPTS >/dev/null 2>../"$dir.err") ||
		fail "$1 '$OPTS': $(head -c 200 "$dir.err")"
	# a file a process (clones read at once), lines as
	# 'read(5</path/j.0.1>, "..."..., 4096) = 4096'
	cat "$dir.trace".* | sed -nE 's#^(read|lseek)\([0-9]+<[^>]*/(j\.[0-9]+\.[0-9]+)>, (.*)\) += ([0-9]+)$#\1 \2 \3 \4#p' | awk '
		$1 == "lseek" { seek[$2] = $NF }
		$1 == "read" { n[$2]++; b[$2] += $NF }
		END { for (f in n) print f, seek[f], n[f], b[f] }' | sort >"$dir.pre"
}
while read -r OPTS; do
	run fio fio
	run iodig "$IODIG" run --no-probes --no-save
	check "'$OPTS': fio pre-read files" test -s fio.pre
	check "'$OPTS': pre-read per file iodig [$(echo $(cat iodig.pre))], fio [$(echo $(cat fio.pre))]" \
		cmp -s iodig.pre fio.pre
done <<'OPTS'
--nrfiles=3 --size=96k
--nrfiles=3 --filesize=16k-64k
--nrfiles=2 --filesize=16k-64k --numjobs=2
--nrfiles=3 --filesize=32k --offset=8k
--nrfiles=3 --filesize=32k-96k --offset=8k
OPTS
done_testing
