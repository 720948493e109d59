#!/bin/bash
# A job file's file names in directories that do not exist yet get them made as fio 3.33 makes them (mode 0700, each missing parent), whether the name is filename=, filename_format= or the default from a job name with '/' (dgist-datalab's "[Mixed Random R/W]"): the same tree, modes and file sizes as fio's, and the same I/O; a directory= that does not exist is refused as fio refuses it, and --target's missing directory still is, with nothing made.
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1

# tree DIR: every entry under DIR with its mode and size (a file's)
tree() { (cd "$1" && find . -mindepth 1 -printf '%M %s %p\n' | sed 's/^\(d[^ ]*\) [0-9]* /\1 /' | sort); }
# io DIR: each job's read and write I/Os and bytes, from the JSON report
io() { jq -c '[.jobs[] | [.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes]]' "$1"; }

n=0
while read -r args; do
	n=$((n + 1))
	mkdir -p "f$n" "i$n"
	eval "set -- $args"
	(cd "f$n" && fio --output-format=json "$@" >"../f$n.json" 2>"../f$n.err"); rf=$?
	(cd "i$n" && "$IODIG" run --no-probes --no-save --no-progress --output-format=json "$@" \
		>"../i$n.json" 2>"../i$n.err"); ri=$?
	check "$args: both run (fio $rf, iodig $ri: $(head -c 200 "i$n.err"))" [ "$rf" = 0 -a "$ri" = 0 ]
	check "$args: the files and directories fio makes: $(tree "f$n" | tr '\n' ',') iodig: $(tree "i$n" | tr '\n' ',')" \
		[ "$(tree "i$n")" = "$(tree "f$n")" -a -n "$(tree "f$n")" ]
	check "$args: the I/O fio does: $(io "f$n.json") iodig: $(io "i$n.json")" \
		[ "$(io "i$n.json")" = "$(io "f$n.json")" ]
done <<'EOF'
--name='Mixed Random R/W' --rw=write --bs=8k --size=256k
--name=x --filename=sub1/sub2/f --rw=read --bs=4k --size=128k
--name=x --filename_format='p/q/$jobname.$jobnum' --numjobs=2 --rw=randwrite --bs=4k --size=64k
--name=x --directory=. --filename=k/l --rw=write --bs=4k --size=64k
EOF

# directory= that does not exist: fio refuses it at parse time
mkdir f9 i9
(cd f9 && fio --name=x --directory=dd/ee --rw=write --size=64k >/dev/null 2>../f9.err); rf=$?
(cd i9 && "$IODIG" run --no-probes --no-save --name=x --directory=dd/ee --rw=write --size=64k \
	>/dev/null 2>../i9.err); ri=$?
check "directory=dd/ee missing: both refuse (fio $rf, iodig $ri: $(cat i9.err))" [ "$rf" != 0 -a "$ri" != 0 ]
check "directory=dd/ee missing: nothing made" [ -z "$(tree f9)$(tree i9)" ]
# --target is iodig's: its missing directory is refused, nothing made
(cd i9 && "$IODIG" run --no-probes --no-save --name=x --target=zz/yy/f --rw=write --size=64k \
	>/dev/null 2>../i9.err); ri=$?
check "--target=zz/yy/f: refused (exit $ri)" [ "$ri" = 2 ]
check "--target=zz/yy/f: says why: $(cat i9.err)" grep -q "directory zz/yy does not exist" i9.err
check "--target=zz/yy/f: nothing made" [ -z "$(tree i9)" ]
done_testing
