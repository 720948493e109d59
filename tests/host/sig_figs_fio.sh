#!/bin/bash
# significant_figures as fio 3.33: the digits num2str gives the text
# report's IOPS, bandwidth and sizes: the job's header line (bs=), its
# "IOPS=, BW=" line and the group's "READ: bw=" line (a group takes its
# last entry's figures; with group_reporting its first job's).  Same
# rate-limited job, both tools; the lines are compared with each digit as
# N (their shape: "93.7MiB/s" with 3 figures, "94MiB/s" with 2), the header
# exactly.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
cd "$TMP" || exit 1
truncate -s 64m f || skip "cannot make a file in $TMP"
JOB=(--filename="$TMP/f" --rw=read --bs=64k --size=64000k --rate_iops=1500)

# lines FILE: the header, rate and group lines of a text report, digits
# but the header's masked
lines() {
	grep -E '^[a-z]+: \(g=' "$1"
	grep -E '^  read: IOPS=|^   READ: bw=' "$1" | sed 's/[0-9]/N/g'
}
both() {
	CASE="$*"
	fio "${JOB[@]}" "$@" >fio.out 2>fio.err || fail "fio $CASE: $(head -c 300 fio.err)"
	"$IODIG" run --no-probes --no-save "${JOB[@]}" "$@" >iodig.out 2>iodig.err ||
		fail "iodig $CASE: $(head -c 300 iodig.err)"
	lines fio.out >fio.lines
	lines iodig.out >iodig.lines
	check "$CASE: the lines are fio's$(diff fio.lines iodig.lines | head -6 | sed 's/^/\n    /')" \
		cmp -s fio.lines iodig.lines
	check "$CASE: there are lines to compare" [ "$(wc -l <iodig.lines)" -ge 3 ]
}

both --name=a
for sf in 1 2 3 7 10; do
	both --name=a --significant_figures=$sf
done
# a group's line takes the last entry's figures ...
both --name=a --significant_figures=2 --name=b --significant_figures=7
# ... a group_reporting entry its first job's
both --group_reporting --name=a --significant_figures=2 --name=b --significant_figures=7
for bad in 0 11; do
	refused "significant_figures=$bad" "significant_figures.*out of range 1-10" --significant_figures=$bad
done
done_testing
