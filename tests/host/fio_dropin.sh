#!/bin/bash
# iodig as a drop-in for fio: the same command lines go to fio 3.33 and to
# `iodig fio` (and to iodig through a link named fio); --version's form,
# --showcmd's output, --parse-only's exit status on good and bad job files
# and with --section, the jobs --section picks, the JSON keys, --readonly,
# the clear refusal of client/server mode, and a run or --parse-only with
# no job (a file of [global] only, none, no --name): exit status, the
# first line of stderr and whether stdout has the usage, must agree with
# fio's.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
fio --version | grep -q '^fio-3\.33$' || skip "fio $(fio --version) is not fio 3.33"

mkdir -p "$TMP/bin"
ln -s "$IODIG" "$TMP/bin/fio"
LINK=$TMP/bin/fio
cd "$TMP" || exit 1

cat >good.fio <<EOF
; a comment
[global]
rw=randread
bs=4k
size=256k
ioengine=psync

[a]
filename=$TMP/data.a
# another comment
[b]
iodepth=4
filename=$TMP/data.b
rw=read
[c]
filename=$TMP/data.c
EOF
printf '[global]\nbs=4k\n\n[ok]\nrw=read\nsize=64k\nfilename=%s/data.ok\n\n[bad]\nnot_an_option=1\n' \
	"$TMP" >bad.fio
printf '[w]\nrw=write\nsize=64k\nfilename=%s/data.w\n' "$TMP" >write.fio

# --version: fio's line first; iodig names itself after it
fv=$(fio --version)
for cmd in "$IODIG fio" "$LINK"; do
	iv=$($cmd --version)
	check "$cmd --version starts with fio's line '$fv' (got '$(head -1 <<<"$iv")')" \
		[ "$(head -1 <<<"$iv")" = "$fv" ]
	check "$cmd --version names iodig on the next line" matches "$(sed -n 2p <<<"$iv")" '^iodig [0-9]'
done

# --showcmd: byte for byte, with and without --section, several files
for args in "good.fio" "--section=b good.fio" "--section=c --section=a good.fio" \
	    "good.fio good.fio" "--section=zz good.fio" "--name=x --rw=read"; do
	# shellcheck disable=SC2086
	fio --showcmd $args >fio.out 2>/dev/null
	frc=$?
	# shellcheck disable=SC2086
	"$LINK" --showcmd $args >iodig.out 2>iodig.err
	irc=$?
	check "--showcmd $args: same output (fio '$(head -c 150 fio.out)', iodig '$(head -c 150 iodig.out)' $(head -c 150 iodig.err))" \
		cmp -s fio.out iodig.out
	check "--showcmd $args: same exit status ($frc, $irc)" [ "$frc" = "$irc" ]
done

# --parse-only: exit status on good and bad files; a skipped section is unread
for args in "good.fio" "bad.fio" "--section=ok bad.fio" "--section=bad bad.fio" \
	    "--section=zz good.fio" "--readonly write.fio" "--readonly good.fio" \
	    "--output-format=json good.fio" "--output-format=nonsense good.fio"; do
	# shellcheck disable=SC2086
	fio --parse-only $args >/dev/null 2>&1
	frc=$?
	for cmd in "$IODIG fio" "$LINK"; do
		# shellcheck disable=SC2086
		$cmd --parse-only $args >/dev/null 2>iodig.err
		irc=$?
		check "$cmd --parse-only $args: exit $frc as fio's (got $irc: $(head -c 200 iodig.err))" \
			[ "$frc" = "$irc" ]
	done
done

# A run: --section picks the same jobs, each does the same I/O, and the
# JSON has fio's keys (iodig's section added)
fio --section=c --section=a --output-format=json --output=fio.json good.fio >/dev/null 2>fio.err
check "fio ran (exit $?, $(head -c 200 fio.err))" [ -s fio.json ]
rm -f data.*
"$LINK" --section=c --section=a --output-format=json --output=iodig.json good.fio \
	>iodig.stdout 2>iodig.err
irc=$?
check "iodig through the link ran (exit $irc, $(head -c 300 iodig.err))" [ "$irc" = 0 ]
check "the report went to --output only" [ ! -s iodig.stdout ]
picked() { jq -r '[.jobs[] | "\(.jobname):\(.read.total_ios):\(.read.io_bytes)"] | sort | join(" ")' "$1"; }
fp=$(picked fio.json) ip=$(picked iodig.json)
# A equals B, which is not empty
same() { [ -n "$2" ] && [ "$1" = "$2" ]; }
check "--section picks the jobs fio runs, with the same I/O (fio '$fp', iodig '$ip')" \
	same "$ip" "$fp"
keys() { jq -r "$2 | keys_unsorted[]" "$1" | LC_ALL=C sort; }
# KEYS of fio's document at PATH that iodig's lacks
lacks() { LC_ALL=C comm -23 <(keys fio.json "$1") <(keys iodig.json "$1") | tr '\n' ' '; }
for path in '.jobs[0]' '.jobs[0].read' '.jobs[0].read.clat_ns'; do
	missing=$(lacks "$path")
	check "JSON $path has fio's keys (missing: '$missing')" [ -z "$missing" ]
done
missing=$(lacks '.' | sed 's/disk_util //')
check "the document has fio's top-level keys (missing: '$missing')" [ -z "$missing" ]
check "the document adds the iodig section" [ "$(jq -r 'has("iodig")' iodig.json)" = true ]
check "no trace file left in the working directory" [ ! -e iodig-runs ]

# Client/server mode: one clear error, fio's failure status, nothing run
for opt in --server --client=localhost; do
	"$LINK" "$opt" good.fio >/dev/null 2>iodig.err
	irc=$?
	check "$opt: exit 1 (got $irc)" [ "$irc" = 1 ]
	check "$opt: the error says client/server is out of scope ($(cat iodig.err))" \
		grep -q "client/server mode is out of iodig's scope" iodig.err
done

# No job at all: a file of [global] only (SPDK's), an empty one, none,
# options without --name, --section naming no section.  fio's
# --parse-only passes; a run says "No job(s) defined" on stderr, prints
# its usage on stdout and exits 1; beside a file with a job, that job runs.
printf '[global]\nrw=read\nbs=4k\nsize=64k\nfilename=%s/data.g\n' "$TMP" >global.fio
: >empty.fio
first_err() { grep -v '^\s*$' "$1" | head -1; }
# FILE1 and FILE2 both have bytes, or both none
alike_empty() { if [ -s "$1" ]; then [ -s "$2" ]; else [ ! -s "$2" ]; fi; }
for args in "global.fio" "empty.fio" "" "--bs=4k" "--section=zz good.fio" \
	    "--output-format=json global.fio" "global.fio write.fio"; do
	for po in "--parse-only" ""; do
		# shellcheck disable=SC2086
		fio $po $args >fio.out 2>fio.err
		frc=$?
		for cmd in "$IODIG fio" "$LINK"; do
			rm -f data.*
			# shellcheck disable=SC2086
			$cmd $po $args >iodig.out 2>iodig.err
			irc=$?
			what="$cmd $po $args"
			check "$what: exit $frc as fio's (got $irc: $(head -c 200 iodig.err))" \
				[ "$frc" = "$irc" ]
			check "$what: stderr starts as fio's ('$(first_err fio.err)', got '$(first_err iodig.err)')" \
				[ "$(first_err fio.err)" = "$(first_err iodig.err)" ]
			check "$what: stdout empty as fio's or not ($(wc -c <fio.out) and $(wc -c <iodig.out) bytes)" \
				alike_empty fio.out iodig.out
		done
	done
done
"$LINK" global.fio write.fio --output-format=json >iodig.json 2>iodig.err
check "a file of [global] only beside one with a job: that job runs ($(jq -c '[.jobs[].jobname]' iodig.json 2>/dev/null))" \
	[ "$(jq -c '[.jobs[].jobname]' iodig.json 2>/dev/null)" = '["w"]' ]
"$IODIG" fio >iodig.out 2>/dev/null
check "fio with no job: the usage, iodig fio's, on stdout as fio's" grep -q "usage: iodig fio" iodig.out
done_testing
