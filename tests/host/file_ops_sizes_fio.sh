# The file-operation engines (filecreate, filestat, filedelete) size and serve their files as fio 3.33 does: each file its own offsets and its whole blocks (size= not a multiple of bs x nrfiles, nrfiles 1..10, filesize= fixed or a range, bsrange, random offsets, file_service_type, numjobs), a file smaller than a block reached for its operation without an I/O (filecreate's real size is a block: one I/O there when sequential), a job ended by its size before every file is reached, and a new pass (loops, io_size) that opens each file again.  Per job in an empty directory: the same I/Os, bytes, operations timed (clat samples) and error, the same files left, and the same number of successful operation system calls on the files (strace: create, unlink, statx).
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
command -v strace >/dev/null || skip "strace not installed"
command -v jq >/dev/null || skip "jq not installed"

# The engine's own system call, successful, on one of the job's files:
# fio's open_file (create: open with O_CREAT|O_RDWR; stat_type=statx: on
# the absolute path; delete: unlink).  Layout calls differ in flags or
# path, so they are not counted.
op_pattern() {
	case $1 in
	filecreate) echo 'openat\(.*"([^"]*/)?t\.[0-9]+\.[0-9]+", O_RDWR\|O_CREAT' ;;
	filestat) echo 'statx\(-1, "/[^"]*/t\.[0-9]+\.[0-9]+"' ;;
	filedelete) echo 'unlink\("([^"]*/)?t\.[0-9]+\.[0-9]+"\)' ;;
	esac
}

# same ENGINE JOB-ARGS...: both tools run the job in an empty directory
same() {
	local engine=$1 tool; shift
	local args=(--name=t --ioengine="$engine" "$@")
	[ "$engine" = filestat ] && args+=(--stat_type=statx)
	for tool in fio iodig; do
		rm -rf "$TMP/fo" && mkdir "$TMP/fo"
		local cmd=(fio)
		[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
		(cd "$TMP/fo" && strace -f -qq -e status=successful -o "$TMP/$tool.strace" \
			"${cmd[@]}" --output-format=json "${args[@]}" >"$TMP/$tool.out" 2>"$TMP/$tool.err")
		sed -n '/^{/,$p' "$TMP/$tool.out" >"$TMP/$tool.json"
		jq -r '.jobs | map([.read.total_ios, .read.io_bytes, .read.clat_ns.N,
			.write.total_ios, .write.io_bytes, .write.clat_ns.N, .error] | join(" ")) |
			join(", ")' "$TMP/$tool.json" >"$TMP/$tool.res" 2>/dev/null
		# no report: the tool's error (and its name, so two never agree)
		[ -s "$TMP/$tool.res" ] || { echo "$tool:"; head -c 200 "$TMP/$tool.err"; } >"$TMP/$tool.res"
		(cd "$TMP/fo" && ls -A | sort) >"$TMP/$tool.files"
		grep -cE "$(op_pattern "$engine")" "$TMP/$tool.strace" >"$TMP/$tool.ops"
	done
	local kind what
	for kind in res files ops; do
		case $kind in
		res) what="I/Os, bytes, operations timed, error" ;;
		files) what="files left" ;;
		ops) what="successful operation calls on the files" ;;
		esac
		check "$engine $*: $what as fio (fio: $(paste -sd' ' "$TMP/fio.$kind"); iodig: $(paste -sd' ' "$TMP/iodig.$kind"))" \
			cmp -s "$TMP/fio.$kind" "$TMP/iodig.$kind"
	done
}

# size= not a multiple of bs x nrfiles: each file's whole blocks only
for e in filecreate filestat filedelete; do
	same $e --nrfiles=10 --size=2m --bs=4k
done
same filecreate --nrfiles=3 --size=30k --bs=4k
same filecreate --nrfiles=1 --size=10k --bs=4k
same filedelete --nrfiles=7 --size=100k --bsrange=4k-16k
same filestat --nrfiles=4 --size=50k --bs=4k --rw=randread --file_service_type=random
same filecreate --nrfiles=4 --size=50k --bs=4k --rw=randwrite
same filecreate --nrfiles=4 --size=50k --bs=4k --file_service_type=sequential
same filecreate --nrfiles=3 --size=30k --bs=4k --numjobs=2
# files smaller than a block: each reached, its operation done; filecreate
# does one I/O on each when sequential, none when random
same filecreate --nrfiles=3 --size=10k --bs=4k
same filecreate --nrfiles=3 --size=10k --bs=4k --rw=randread
same filedelete --nrfiles=3 --size=10k --bs=4k
same filestat --nrfiles=3 --filesize=3k --bs=4k
# the job's size ends it before its last file is reached
same filecreate --nrfiles=3 --size=12k --bs=8k
# filesize=: fixed, and a range (filecreate's block is every file's size
# when the range holds it; else each file draws its own)
same filecreate --nrfiles=3 --filesize=6k --bs=4k
same filecreate --nrfiles=5 --filesize=4k-20k --bs=4k
same filecreate --nrfiles=5 --filesize=5k-40k --bs=4k
same filedelete --nrfiles=5 --filesize=3k-21k --bs=4k
# a new pass over the files (loops, io_size past size) opens each again,
# as fio closes a file once done: its operation runs again (a deleted
# file's second unlink fails in both)
same filecreate --nrfiles=2 --filesize=8k --bs=4k --loops=3
same filecreate --nrfiles=2 --size=16k --bs=4k --io_size=40k
same filestat --nrfiles=3 --size=30k --bs=4k --loops=2
same filedelete --nrfiles=2 --size=16k --bs=4k --loops=2
done_testing
