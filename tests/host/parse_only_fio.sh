#!/bin/bash
# fio --parse-only and iodig run --parse-only agree on which job files of
# fio's own repository (the corpus, $IODIG_FIO_CORPUS, default
# /work/shared/fio-corpus) are valid.  Each disagreement is printed with
# its class; the test fails when iodig accepts a file fio refuses, or
# refuses one fio accepts for a reason of job-file syntax (sections,
# include, ${VAR}, keywords): those are this parser's to get right.  fio
# accepting what iodig refuses for an engine it does not run, or for an
# option or engine iodig does not implement yet, is listed, not failed.
# timeout: 300
. "$(dirname "$0")/lib.sh"
CORPUS=${IODIG_FIO_CORPUS:-/work/shared/fio-corpus}
command -v fio >/dev/null || skip "no fio"
[ -d "$CORPUS" ] || skip "no fio job file corpus at $CORPUS (set IODIG_FIO_CORPUS)"
fio --version | grep -q '^fio-3\.' || skip "fio $(fio --version) is not fio 3.x"

# iodig's refusals that are a decision, not a gap (job/fio_engines.c)
BY_DESIGN="bypasses the kernel block layer|is not local I/O|does no storage I/O|asynchronous I/O: not a kernel|loads fio engine code"
# not yet: an engine or option iodig lacks, or a value it does not take
NOT_YET="is a kernel engine iodig does not implement yet|unknown option|is not supported|is not one of|is not an engine iodig has|several files|is a percentage|third \(trim\) part|is unknown \(iodig has|iodig verifies one file per job|is not a size|has no NUMA node|needs runtime"
# options fio added after 3.33 that iodig takes, as fio's HOWTO defines
# them (io_uring_cmd's protection information and write_mode, the
# steady-state check interval and lat criteria, the sequence distribution,
# sprandom preconditioning): fio 3.33 refuses them as "Bad option" or, for
# steadystate=lat and random_distribution=sequence, "failed parsing"
NEWER="Bad option <(pi_act|pi_chk|apptag|apptag_mask|md_per_io_size|write_mode|fdp|fdp_pli|num_range|steadystate_check_interval|ss_interval|log_window_value|log_issue_time|random_sequence_stride|verify_write_sequence|sprandom|spr_op|spr_num_regions)=|failed parsing (steadystate|ss)=lat|failed parsing random_distribution=sequence:"
# the parser's own business
SYNTAX="section header|appears before any|include|is empty: \\$\{|uses \\\$pagesize|overflows or divides|line is longer|NUL byte|no jobs defined|has no option name"

agree=0 files=0 by_design=0 not_yet=0 newer=0
W=$TMP/w
for f in "$CORPUS"/*.fio; do
	name=$(basename "$f")
	src=${name%%__*}
	rm -rf "$W" && mkdir "$W"
	cp "$f" "$W/"
	[ -d "$CORPUS/include/$src" ] && cp "$CORPUS/include/$src"/* "$W/"
	files=$((files + 1))
	(cd "$W" && timeout 10 fio --parse-only "$name" >/dev/null 2>"$TMP/fio.err")
	frc=$?
	(cd "$W" && timeout 10 "$IODIG" run --parse-only "$name" >/dev/null 2>"$TMP/iodig.err")
	irc=$?
	fmsg=$(grep -v '^\s*$' "$TMP/fio.err" | head -1)
	imsg=$(sed -n 's/^iodig: //p' "$TMP/iodig.err" | head -1)
	if [ "$irc" -ge 124 ] || { [ "$irc" -ne 0 ] && [ -z "$imsg" ]; }; then
		fail "$name: iodig --parse-only exit $irc without a message: $(head -c 200 "$TMP/iodig.err")"
	elif [ "$frc" -eq 0 ] && [ "$irc" -eq 0 ]; then
		agree=$((agree + 1))
	elif [ "$frc" -ne 0 ] && [ "$irc" -ne 0 ]; then
		agree=$((agree + 1))
	elif [ "$irc" -eq 0 ] && [[ $fmsg =~ $NEWER ]]; then
		newer=$((newer + 1))
		echo "newer than fio 3.33: $name: $fmsg"
	elif [ "$irc" -eq 0 ]; then
		fail "$name: fio refuses it ($fmsg), iodig accepts it"
	elif [[ $imsg =~ $BY_DESIGN ]]; then
		by_design=$((by_design + 1))
		echo "by design: $name: $imsg"
	elif [[ $imsg =~ $SYNTAX ]]; then
		fail "$name: fio accepts it, iodig refuses its syntax: $imsg"
	elif [[ $imsg =~ $NOT_YET ]]; then
		not_yet=$((not_yet + 1))
		echo "not yet: $name: $imsg"
	else
		fail "$name: fio accepts it, iodig refuses it for an unclassified reason: $imsg"
	fi
done
echo "$files files: $agree agree; fio accepts and iodig refuses $by_design by design (engines outside iodig's scope) and $not_yet for an engine or option iodig does not have yet; $newer use options newer than fio 3.33"
check "the corpus has job files" [ "$files" -gt 0 ]
done_testing
