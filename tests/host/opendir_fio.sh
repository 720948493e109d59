#!/bin/bash
# opendir against fio 3.33: the job's files are the regular files under the
# directory, found recursively in readdir order (ext4's hash order here,
# neither the names' order nor the order they were made), symbolic links
# and fifos passed over, after the files filename= names.  Without size=
# each file is read up to its own end; with size= each gets size / files.
# What each tool did is what strace saw: the files it opened under the
# tree, and the sequence of reads (file, length, offset).  A missing or
# empty directory is an error in both.
# timeout: 120
. "$(dirname "$0")/lib.sh"
IODIG=$(realpath "$IODIG")
need_root
command -v fio >/dev/null || skip "no fio"
command -v strace >/dev/null || skip "no strace"
ext4_mount 64

TREE=$TMP/mnt/tree
mkdir -p "$TREE/sub/deeper" "$TREE/empty" "$TMP/mnt/none"
# files of different sizes, three levels deep
i=0
for f in a b c sub/d sub/e sub/deeper/f sub/deeper/g; do
	i=$((i + 1))
	head -c $((i * 64))K /dev/urandom >"$TREE/$f"
done
ln -s a "$TREE/link"
mkfifo "$TREE/fifo"
sizes_before=$(cd "$TREE" && find . -type f -printf '%p %s\n' | sort)

# run TOOL ARGS...: TOOL reads the job in $TMP/mnt under strace, a trace
# file per task (no call split by another's); leaves $TMP/TOOL.files (each
# file a task opened under the tree, task by task, in order),
# $TMP/TOOL.reads (each task's reads: file, length, offset; the tasks
# sorted by them) and $TMP/TOOL.bytes (each file's bytes read).  Its exit
# status is the tool's.
run() {
	local tool=$1 rc t; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	rm -rf "$TMP/$tool.st" && mkdir "$TMP/$tool.st"
	(cd "$TMP/mnt" && strace -ff -y -e trace=openat,pread64 -o "$TMP/$tool.st/t" \
		"${cmd[@]}" --name=od --rw=read --bs=16k --ioengine=psync "$@" \
		>"$TMP/$tool.out" 2>"$TMP/$tool.err")
	rc=$?
	: >"$TMP/$tool.files"
	for t in "$TMP/$tool.st"/t.*; do
		grep -o '^openat(AT_FDCWD[^,]*, "tree/[^"]*", O_RD[^)]*) = [0-9]' "$t" |
			grep -v O_DIRECTORY | sed 's/.*"\(tree[^"]*\)".*/\1/' >"$t.files"
		grep -o '^pread64([0-9]*<[^>]*/tree/[^>]*>, [^,]*, [0-9]*, [0-9]*) = [0-9]*' "$t" |
			sed 's/^pread64([0-9]*<[^>]*\/tree\/\([^>]*\)>, [^,]*, \([0-9]*\), \([0-9]*\)) = \([0-9]*\)/\1 \2 \3 \4/' >"$t.reads"
		[ -s "$t.reads" ] && { echo "task:"; cat "$t.reads"; } >"$t.task"
	done
	cat "$TMP/$tool.st"/t.*.files >"$TMP/$tool.files"
	# one line per task: its reads, so the tasks can be put in an order
	for t in "$TMP/$tool.st"/t.*.task; do
		[ -f "$t" ] && tr '\n' ';' <"$t" && echo
	done | sort >"$TMP/$tool.reads"
	cat "$TMP/$tool.st"/t.*.reads | awk '{ b[$1] += $4 } END { for (f in b) print f, b[f] }' |
		sort >"$TMP/$tool.bytes"
	return $rc
}

# agree WHAT ARGS...: both tools run the job; they open the same files in
# the same order (unless OPENS=any: fio's threads share its opens) and
# read the same bytes of each, in the same sequence
agree() {
	local what=$1; shift
	run fio "$@" || fail "$what: fio failed: $(head -c 200 "$TMP/fio.err")"
	run iodig "$@" || fail "$what: iodig failed: $(head -c 300 "$TMP/iodig.err")"
	check "$what: fio opened $(wc -l <"$TMP/fio.files") files of the tree" \
		[ "$(wc -l <"$TMP/fio.files")" -ge 7 ]
	[ "${OPENS:-same}" = same ] &&
		check "$what: iodig opened the files fio did, in its order: $(tr '\n' ' ' <"$TMP/iodig.files")" \
			cmp -s "$TMP/fio.files" "$TMP/iodig.files"
	check "$what: each file's bytes read as fio's: $(tr '\n' ' ' <"$TMP/iodig.bytes")" \
		cmp -s "$TMP/fio.bytes" "$TMP/iodig.bytes"
	check "$what: the same $(grep -o ';' "$TMP/fio.reads" | wc -l) reads, task by task, in the same sequence" \
		cmp -s "$TMP/fio.reads" "$TMP/iodig.reads"
}

order=$(cd "$TMP/mnt" && find tree -type f | tr '\n' ' ')
echo "readdir's order: $order"
agree "no size: each file whole" --opendir=tree
# fio's roundrobin stops short of some files' ends, but each file's own
# size decides: the largest gets more than the whole smallest one
check "no size: the largest file got more than an even share" \
	[ "$(awk '$1 == "sub/deeper/g" { print $2 }' "$TMP/iodig.bytes")" -gt $((28 * 64 * 1024 / 7)) ]
agree "size=448k: 64 KiB of each" --opendir=tree --size=448k
agree "filename= then opendir" --filename=tree/sub/e --opendir=tree
check "filename= then opendir: the named file comes first (and again from the tree)" \
	[ "$(head -1 "$TMP/iodig.files")" = tree/sub/e -a \
	"$(grep -c '^tree/sub/e$' "$TMP/iodig.files")" = 2 ]
OPENS=any agree "thread=1, two clones" --opendir=tree --thread --numjobs=2
check "the files are as they were" \
	[ "$(cd "$TREE" && find . -type f -printf '%p %s\n' | sort)" = "$sizes_before" ]

# a directory that is not there, or holds no regular file
for dir in none/x none; do
	run fio --opendir="$dir"
	fio_rc=$?
	run iodig --opendir="$dir"
	iodig_rc=$?
	check "opendir=$dir: fio fails ($fio_rc), and iodig ($iodig_rc): $(head -c 200 "$TMP/iodig.err")" \
		[ "$fio_rc" -ne 0 -a "$iodig_rc" -ne 0 ]
	check "opendir=$dir: iodig's error names the option" grep -q "opendir" "$TMP/iodig.err"
done

done_testing
