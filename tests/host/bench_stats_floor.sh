#!/bin/bash
# The overhead bench's stats_floor (tests/bench/stats_floor.c): its empty
# programs run on the events of the command it wraps, and it hands back
# the command's exit status.  Part (a)'s "net" figures rest on it.
source "$(dirname "$0")/lib.sh"
need_root
FT=${OUT:-build}/tests/bench/stats_floor
[ -x "$FT" ] || skip "no $FT (make unit)"
make_loop 64 || skip "no loop device"
N=2000
"$FT" "$TMP/floor.txt" dd if="$LOOP" of=/dev/null bs=4k count=$N iflag=direct status=none
check "stats_floor hands back its command's status 0" [ $? -eq 0 ]
cnt() { awk -v p="$1" '$1 == p { print $2 }' "$TMP/floor.txt"; }
ns() { awk -v p="$1" '$1 == p { print $3 }' "$TMP/floor.txt"; }
# every direct 4k read completes one request on the loop device, and
# dd sleeps on each, so the switches are at least as many; on 6.18 the
# kernel runs no program for an occasional batch of completions done in
# softirq on top of another task (docs/overhead.md, "Completions the
# kernel does not deliver"), hence 1% less for the request hooks
for p in floor_rq_tp floor_rq_btf floor_sw_btf; do
	want=$N
	[ "$p" = floor_sw_btf ] || want=$((N - N / 100))
	check "$p ran at least $want times for $N reads ($(cnt $p) runs)" [ "$(cnt $p)" -ge $want ]
	check "$p has run time ($(ns $p) ns)" [ "$(ns $p)" -gt 0 ]
done
"$FT" "$TMP/floor.txt" sh -c 'exit 3'
check "stats_floor hands back its command's status 3" [ $? -eq 3 ]
done_testing
