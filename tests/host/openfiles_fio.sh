#!/bin/bash
# openfiles below nrfiles against fio 3.33: at most openfiles of the job's
# files open at once, each opened when the file service first picks it
# and closed once it is done, for file_service_type roundrobin (also
# roundrobin:3), sequential and random, psync and libaio at iodepth > 1,
# with loops=, io_size below the files, a bsrange, norandommap (a file
# never done) and time_based.  What
# each tool did is what strace saw (the openat and close calls on the
# job's files, the most open at once) and what it reported (I/Os and
# bytes per direction, write_iolog's bytes per file, its open and close
# records), plus the files' sizes after the run.  With psync, where the
# order is fio's own, write_iolog's open and close records come in fio's
# order, file_service_type=random too (its draws are fio's); at iodepth >
# 1 only the counts agree.
# timeout: 240
. "$(dirname "$0")/lib.sh"
IODIG=$(realpath "$IODIG")
command -v fio >/dev/null || skip "no fio"
command -v strace >/dev/null || skip "no strace"
command -v jq >/dev/null || skip "no jq"

FILE_RE='of\.0\.[0-9]+'

# run TOOL ARGS...: TOOL runs the job "of" in a fresh $TMP/TOOL.d under
# strace; leaves $TMP/TOOL.sum, one "what value" line each, and
# $TMP/TOOL.oc, write_iolog's open and close records in order.
run() {
	local tool=$1 st=$TMP/$1.st; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	rm -rf "$TMP/$tool.d" "$TMP/$tool.iolog" && mkdir "$TMP/$tool.d"
	(cd "$TMP/$tool.d" && strace -f -y -e trace=openat,close -o "$st" \
		"${cmd[@]}" --name=of --output-format=json --output="$TMP/$tool.json" \
		--write_iolog="$TMP/$tool.iolog" "$@" >/dev/null 2>"$TMP/$tool.err") || return 1
	{
		echo "opens $(grep -cE "openat\(.*\"(\./)?$FILE_RE\".*= [0-9]+<" "$st")"
		# the job's own opens, not the layout's (O_WRONLY)
		echo "io-opens $(grep -E "openat\(.*\"(\./)?$FILE_RE\".*= [0-9]+<" "$st" | grep -vc O_WRONLY)"
		echo "closes $(grep -cE "close\([0-9]+</[^>]*/$FILE_RE>" "$st")"
		jq -r '.jobs[0] | "ios \(.read.total_ios) \(.write.total_ios)",
			"bytes \(.read.io_bytes) \(.write.io_bytes)"' "$TMP/$tool.json"
		echo "sizes $(cd "$TMP/$tool.d" && stat -c '%n=%s' of.0.* | tr '\n' ' ')"
		echo "file-bytes $(awk 'NF == 5 { sub("^\\./", "", $2); b[$2] += $5 }
			END { for (f in b) print f "=" b[f] }' "$TMP/$tool.iolog" | sort | tr '\n' ' ')"
		echo "iolog-opens $(awk '$3 == "open"' "$TMP/$tool.iolog" | wc -l)"
		echo "iolog-closes $(awk '$3 == "close"' "$TMP/$tool.iolog" | wc -l)"
	} >"$TMP/$tool.sum"
	awk '$3 == "open" || $3 == "close" { sub("^\\./", "", $2); print $2, $3 }' \
		"$TMP/$tool.iolog" >"$TMP/$tool.oc"
	# the most of the job's files open at once, past the layout
	grep -E "openat\(.*\"(\./)?$FILE_RE\".*= [0-9]+<|close\([0-9]+</[^>]*/$FILE_RE>" "$st" |
		awk '/openat/ && !/O_WRONLY/ { f = $0; sub(/.*= [0-9]+</, "", f); sub(/>.*/, "", f)
				if (!(f in o)) n++; o[f] = 1; if (n > max) max = n; next }
		     /close\(/ { f = $0; sub(/.*close\([0-9]+</, "", f); sub(/>.*/, "", f)
				if (f in o) { delete o[f]; n-- } }
		     END { print max + 0 }' >"$TMP/$tool.maxopen"
}

sum() { awk -v w="$2" '$1 == w { $1 = ""; sub(/^ /, ""); print }' "$TMP/$1.sum"; }

# agree WHAT ORDER OPENFILES ARGS...: both tools run the job with
# openfiles=OPENFILES; they make the same calls and I/O; with ORDER=order
# their write_iolog's opens and closes come in the same order.
agree() {
	local what=$1 order=$2 limit=$3; shift 3
	local args=(--openfiles="$limit" "$@")
	run fio "${args[@]}" || { fail "$what: fio failed: $(head -c 300 "$TMP/fio.err")"; return; }
	run iodig "${args[@]}" || { fail "$what: iodig failed: $(head -c 300 "$TMP/iodig.err")"; return; }
	check "$what: fio opened its files again and again ($(sum fio io-opens) opens)" \
		[ "$(sum fio io-opens)" -gt 0 ]
	for w in opens io-opens closes ios bytes sizes file-bytes iolog-opens iolog-closes; do
		check "$what: $w as fio's ($(sum fio "$w")): $(sum iodig "$w")" \
			[ "$(sum fio "$w")" = "$(sum iodig "$w")" ]
	done
	check "$what: at most $limit files open at once ($(cat "$TMP/iodig.maxopen"), fio $(cat "$TMP/fio.maxopen"))" \
		[ "$(cat "$TMP/iodig.maxopen")" -le "$limit" ]
	[ "$order" = order ] &&
		check "$what: write_iolog's opens and closes in fio's order: $(tr '\n' ' ' <"$TMP/iodig.oc" | head -c 300)" \
			cmp -s "$TMP/fio.oc" "$TMP/iodig.oc"
}

agree "read, roundrobin, psync, 2 of 4" order 2 --nrfiles=4 --filesize=16k --bs=4k \
	--rw=read --ioengine=psync --file_service_type=roundrobin
agree "read, roundrobin:3, psync, 2 of 5" order 2 --nrfiles=5 --filesize=16k --bs=4k \
	--rw=read --ioengine=psync --file_service_type=roundrobin:3
agree "write, sequential, psync, 1 of 4" order 1 --nrfiles=4 --filesize=16k --bs=4k \
	--rw=write --ioengine=psync --file_service_type=sequential
agree "randread, random, psync, 2 of 5" order 2 --nrfiles=5 --filesize=32k --bs=4k \
	--rw=randread --ioengine=psync --file_service_type=random
agree "write, roundrobin, libaio iodepth=8, 2 of 4" counts 2 --nrfiles=4 --filesize=64k \
	--bs=4k --rw=write --ioengine=libaio --iodepth=8
agree "randwrite, random, libaio iodepth=4, 3 of 6" counts 3 --nrfiles=6 --filesize=64k \
	--bs=4k --rw=randwrite --ioengine=libaio --iodepth=4 --file_service_type=random
agree "write, sequential, libaio iodepth=4, bsrange, 2 of 4" counts 2 --nrfiles=4 \
	--filesize=20k --bsrange=4k-12k --rw=write --ioengine=libaio --iodepth=4 \
	--file_service_type=sequential
agree "write, roundrobin, psync, loops=2, 2 of 3" order 2 --nrfiles=3 --filesize=16k \
	--bs=4k --rw=write --ioengine=psync --loops=2
agree "read, roundrobin, psync, io_size below the files, 2 of 4" order 2 --nrfiles=4 \
	--filesize=16k --bs=4k --rw=read --ioengine=psync --io_size=40k
agree "write, roundrobin, psync, bsrange, 3 of 4" order 3 --nrfiles=4 --filesize=20k \
	--bsrange=4k-12k --rw=write --ioengine=psync
agree "randread, roundrobin, norandommap, psync, 2 of 4" order 2 --nrfiles=4 \
	--filesize=16k --bs=4k --rw=randread --norandommap --ioengine=psync
agree "randread, sequential, norandommap, libaio iodepth=4, 2 of 4" counts 2 --nrfiles=4 \
	--filesize=16k --bs=4k --rw=randread --norandommap --ioengine=libaio --iodepth=4 \
	--file_service_type=sequential
# a mixed job: fio draws a direction for each fill, also for one on a
# file found done, so where files are found done moves the split
agree "randrw, roundrobin, psync, 3 of 8" order 3 --nrfiles=8 --filesize=32k --bs=4k \
	--rw=randrw --ioengine=psync
agree "randrw, random, psync, 3 of 8" order 3 --nrfiles=8 --filesize=32k --bs=4k \
	--rw=randrw --ioengine=psync --file_service_type=random
agree "randrw, roundrobin, libaio iodepth=8, 3 of 8" counts 3 --nrfiles=8 --filesize=32k \
	--bs=4k --rw=randrw --ioengine=libaio --iodepth=8
run fio --nrfiles=8 --filesize=32k --bs=4k --rw=randrw --ioengine=psync \
	--file_service_type=sequential || fail "randrw, sequential: fio failed"
run iodig --nrfiles=8 --filesize=32k --bs=4k --rw=randrw --ioengine=psync \
	--file_service_type=sequential || fail "randrw, sequential: iodig failed"
check "randrw, sequential, all files open: reads and writes as fio's ($(sum fio ios)): $(sum iodig ios)" \
	[ "$(sum fio ios)" = "$(sum iodig ios)" ]

# Random offsets without a map never make a file done in fio, with or
# without openfiles: sequential keeps to the first file until the job's
# size.  (iodig opens every file up front without openfiles, so only the
# I/O is compared.)
run fio --nrfiles=4 --filesize=16k --bs=4k --rw=randread --norandommap \
	--ioengine=psync --file_service_type=sequential || fail "norandommap: fio failed"
run iodig --nrfiles=4 --filesize=16k --bs=4k --rw=randread --norandommap \
	--ioengine=psync --file_service_type=sequential || fail "norandommap: iodig failed"
for w in ios file-bytes; do
	check "sequential, norandommap, all files open: $w as fio's ($(sum fio "$w")): $(sum iodig "$w")" \
		[ "$(sum fio "$w")" = "$(sum iodig "$w")" ]
done

# time_based: how many passes depends on the time, so each tool's own
# figures are checked: every open serves one file's 4 I/Os (the last
# files' cut by the runtime) and at most 2 are open at once.
for tool in fio iodig; do
	if ! run "$tool" --openfiles=2 --nrfiles=4 --filesize=16k --bs=4k --rw=read \
		--ioengine=psync --time_based --runtime=300ms; then
		fail "time_based: $tool failed: $(head -c 300 "$TMP/$tool.err")"
		continue
	fi
	read -r ios _ <<<"$(sum "$tool" ios)"
	opens=$(sum "$tool" io-opens)
	check "time_based, $tool: $ios reads, 4 for each of its $opens opens but the last 2 files'" \
		[ "$ios" -gt 4 -a "$ios" -le $((4 * opens)) -a "$ios" -gt $((4 * (opens - 2))) ]
	check "time_based, $tool: every open closed ($(sum "$tool" opens) opens, $(sum "$tool" closes) closes)" \
		[ "$(sum "$tool" opens)" = "$(sum "$tool" closes)" ]
	check "time_based, $tool: at most 2 open at once ($(cat "$TMP/$tool.maxopen"))" \
		[ "$(cat "$TMP/$tool.maxopen")" -le 2 ]
done

# what iodig still does on every file at once is refused, saying why
(cd "$TMP" && "$IODIG" run --no-probes --no-save --name=of --nrfiles=4 --openfiles=2 \
	--filesize=16k --rw=write --verify=crc32c >/dev/null 2>"$TMP/refused.err")
rc=$?
check "verify with openfiles=2 of 4: refused naming verify ($(head -c 200 "$TMP/refused.err"))" \
	[ "$rc" -ne 0 -a -n "$(grep -o 'openfiles=2.*verify' "$TMP/refused.err")" ]

done_testing
