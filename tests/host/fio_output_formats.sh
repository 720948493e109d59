#!/bin/bash
# fio 3.33 and iodig run the same short jobs; their outputs are compared
# field by field where they must agree (not the measured values): the
# percentile keys of percentile_list/lat_percentiles/slat_percentiles,
# gtod_reduce's empty figures, "global options" and "job options", json+
# bins (every key one of fio's bin values, counts summing to the I/Os),
# the terse v3 line (field count, fixed fields, percentile labels), and
# the log files (names, column counts, monotone times, values in range).
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
fio --version | grep -q '^fio-3' || skip "fio is not fio 3.x"
command -v python3 >/dev/null || skip "no python3"
F=$TMP/data
truncate -s 4m "$F"
IODIG_RUN=("$IODIG" run --no-probes --no-save --no-progress)

# compare PYTHON-EXPR-ON-A-AND-B FIO-JSON IODIG-JSON: true when equal
same_json() {
	python3 - "$2" "$3" "$1" <<'EOF'
import json, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index('{'):])   # fio may print lines before its JSON
a, b = load(sys.argv[1]), load(sys.argv[2])
fa, fb = eval(sys.argv[3], {'d': a}), eval(sys.argv[3], {'d': b})
if fa != fb:
    print('fio:   %r\niodig: %r' % (fa, fb), file=sys.stderr)
    sys.exit(1)
EOF
}

JOB=(--name=j --filename="$F" --size=1m --bs=4k --rw=randrw --ioengine=libaio --iodepth=2)

# --- percentiles and json+ ---------------------------------------------------
OPTS=(--percentile_list=25:50:99.5:99.999 --lat_percentiles=1 --slat_percentiles=1)
fio "${JOB[@]}" "${OPTS[@]}" --output-format=json+ >"$TMP/f.json" 2>/dev/null
"${IODIG_RUN[@]}" "${JOB[@]}" "${OPTS[@]}" --output-format=json+ >"$TMP/i.json"
PCT='{dd+"/"+k: sorted(d["jobs"][0][dd][k].get("percentile", {})) for dd in ("read","write") for k in ("slat_ns","clat_ns","lat_ns")}'
check "percentile keys of slat/clat/lat as fio's" same_json "$PCT" "$TMP/f.json" "$TMP/i.json"
KEYS='{dd+"/"+k: sorted(d["jobs"][0][dd][k]) for dd in ("read","write") for k in ("slat_ns","clat_ns","lat_ns")}'
check "json+ lat objects carry fio's keys (bins with percentiles)" same_json "$KEYS" "$TMP/f.json" "$TMP/i.json"
bins_ok() {
	python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
def val(i):  # fio's plat_idx_to_val
    if i < 128: return i
    e = (i >> 6) - 1
    return (1 << (e + 6)) + int((i % 64 + 0.5) * (1 << e))
fio_bins = {str(val(i)) for i in range(1856)}
for dd in ("read", "write"):
    for k in ("slat_ns", "clat_ns", "lat_ns"):
        o = d["jobs"][0][dd][k]
        if not o["N"]: continue
        b = o["bins"]
        assert set(b) <= fio_bins, (dd, k, set(b) - fio_bins)
        assert sum(b.values()) == o["N"], (dd, k, sum(b.values()), o["N"])
    assert d["jobs"][0][dd]["clat_ns"]["N"] == d["jobs"][0][dd]["total_ios"]
EOF
}
check "json+ bins are fio's bin values and sum to the I/Os" bins_ok "$TMP/i.json"
# the labels ("25.000th"), in order; lines wrap by the values' width
txt_pct() { grep -E '^ +\| ' "$1" | grep -oE '[0-9.]+th='; }
fio "${JOB[@]}" "${OPTS[@]}" --rw=randread >"$TMP/f.txt" 2>/dev/null
"${IODIG_RUN[@]}" "${JOB[@]}" "${OPTS[@]}" --rw=randread >"$TMP/i.txt"
check "text percentile labels and headers as fio's" \
	diff <(txt_pct "$TMP/f.txt"; grep -o ' *[a-z]* percentiles' "$TMP/f.txt") \
	     <(txt_pct "$TMP/i.txt"; grep -o ' *[a-z]* percentiles' "$TMP/i.txt")

# --- gtod_reduce and disable_* ------------------------------------------------
NS='{dd+"/"+k: (d["jobs"][0][dd][k]["N"] > 0, "percentile" in d["jobs"][0][dd][k]) for dd in ("read",) for k in ("slat_ns","clat_ns","lat_ns")}'
for o in --gtod_reduce=1 --disable_lat=1 --disable_clat=1 --disable_slat=1 --clat_percentiles=0; do
	fio "${JOB[@]}" --rw=randread "$o" --output-format=json >"$TMP/f.json" 2>/dev/null
	"${IODIG_RUN[@]}" "${JOB[@]}" --rw=randread "$o" --output-format=json >"$TMP/i.json"
	check "$o: which latencies are measured and have percentiles, as fio" \
		same_json "$NS" "$TMP/f.json" "$TMP/i.json"
done
fio "${JOB[@]}" --rw=randread --gtod_reduce=1 >"$TMP/f.txt" 2>/dev/null
"${IODIG_RUN[@]}" "${JOB[@]}" --rw=randread --gtod_reduce=1 >"$TMP/i.txt"
lines() { grep -cE '^ +(slat|clat|lat) +\(|^ +(bw|iops) |percentiles' "$1"; }
check "gtod_reduce: no latency, bandwidth or bucket lines in the text" \
	test "$(lines "$TMP/f.txt")" = 0 -a "$(lines "$TMP/i.txt")" = 0

# --- global options and job options -------------------------------------------
cat >"$TMP/g.fio" <<EOF
[global]
rw=randread
bs=4k
size=1m
percentile_list=25:50:99.5

[j1]
filename=$F
ioengine=psync
lat_percentiles=1
time_based
runtime=200ms
EOF
fio "$TMP/g.fio" --output-format=json >"$TMP/f.json" 2>/dev/null
"${IODIG_RUN[@]}" "$TMP/g.fio" --output-format=json >"$TMP/i.json"
check "job file: global options and job options as fio's" same_json \
	'(d.get("global options"), d["jobs"][0].get("job options"))' "$TMP/f.json" "$TMP/i.json"
CL=(--rw=read --size=1m --name=a --filename="$F" --bs=8k --name=b --filename="$F")
fio "${CL[@]}" --output-format=json >"$TMP/f.json" 2>/dev/null
"${IODIG_RUN[@]}" "${CL[@]}" --output-format=json >"$TMP/i.json"
check "command line: options before --name are global, as fio's" same_json \
	'(d.get("global options"), [j.get("job options") for j in d["jobs"]])' "$TMP/f.json" "$TMP/i.json"

# --- terse -----------------------------------------------------------------------
TJ=("${JOB[@]}" --rw=randread --description=terse-test)
fio "${TJ[@]}" --output-format=terse >"$TMP/f.terse" 2>/dev/null
"${IODIG_RUN[@]}" "${TJ[@]}" --output-format=terse >"$TMP/i.terse"
terse_fixed() { # field count, version, name, group, error, kB read+written, labels
	awk -F';' '{ printf "%d %s %s %s %s %s %s", NF, $1, $3, $4, $5, $6, $47
		for (i = 18; i <= 37; i++) { split($i, p, "="); printf " %s", p[1] }
		print " " $NF }' "$1"
}
check "terse: one v3 line with fio's field count and fixed fields" \
	diff <(terse_fixed "$TMP/f.terse") <(terse_fixed "$TMP/i.terse")
"${IODIG_RUN[@]}" "${JOB[@]}" --output-format=terse,json >"$TMP/tj.out"
check "terse,json: the terse line, then the JSON" \
	test "$(head -c 2 "$TMP/tj.out")" = "3;" -a "$(sed -n 2p "$TMP/tj.out")" = "{"

# --- log files ---------------------------------------------------------------------
mkdir -p "$TMP/flog" "$TMP/ilog"
cat >"$TMP/l.fio" <<EOF
[global]
filename=$F
size=2m
bs=4k
rw=randrw
ioengine=libaio
iodepth=4
numjobs=2
write_lat_log=x
write_bw_log
write_iops_log=y
write_hist_log=h
log_hist_msec=100
[j1]
time_based
runtime=600ms
[avg]
stonewall
log_avg_msec=100
log_offset=1
log_max_value=1
time_based
runtime=600ms
EOF
(cd "$TMP/flog" && fio "$TMP/l.fio" >/dev/null 2>&1)
(cd "$TMP/ilog" && "${IODIG_RUN[@]}" "$TMP/l.fio" >/dev/null)
check "log file names as fio's" diff <(ls "$TMP/flog") <(ls "$TMP/ilog")
# shape FILE: column count, times monotone, ddir 0/1, values >= 0
shape() {
	awk -F', ' -v f="$(basename "$1")" '
		{ if (NF != nf && NR > 1) bad = "columns vary"; nf = NF
		  if ($1 + 0 < last) bad = "time goes back at line " NR; last = $1 + 0
		  d = (f ~ /hist/) ? $2 : $3; if (d != 0 && d != 1) bad = "ddir " d
		  for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/) bad = "not a number: " $i }
		END { print f, (NR ? nf : "empty"), (bad ? bad : "ok") }' "$1"
}
for f in "$TMP"/flog/*.log; do
	n=$(basename "$f")
	[ -f "$TMP/ilog/$n" ] || continue
	want=$(shape "$f" | awk '{print $1, $2}')
	got=$(shape "$TMP/ilog/$n")
	check "$n: $got (fio: $want)" test "$got" = "$want ok"
done
(cd "$TMP/flog" && fio --name=p --filename="$F" --size=64k --write_bw_log=p --log_prio=1 \
	--prioclass=2 --prio=3 >/dev/null 2>&1)
(cd "$TMP/ilog" && "${IODIG_RUN[@]}" --name=p --filename="$F" --size=64k --write_bw_log=p \
	--log_prio=1 --prioclass=2 --prio=3 >/dev/null)
check "log_prio: the priority column as fio's" \
	test "$(cut -d, -f5 "$TMP/flog/p_bw.1.log" | sort -u)" = "$(cut -d, -f5 "$TMP/ilog/p_bw.1.log" | sort -u)"

# Ctrl-C: the logs are written whole as the job stops, and no temp file stays
mkdir -p "$TMP/int"
(cd "$TMP/int" && exec "${IODIG_RUN[@]}" --name=i --filename="$F" --size=1m --rw=randread \
	--time_based --runtime=30 --write_lat_log=i --write_bw_log=i >/dev/null 2>"$TMP/int.err") &
sleep 3
kill -INT $!
wait $!
whole() { [ -s "$1" ] && [ -z "$(tail -c 1 "$1")" ] && awk -F', ' 'NF != 5 { exit 1 }' "$1"; }
# a loaded machine may not have started the job in 3 s: then no log is right
if grep -q "before the workload started" "$TMP/int.err"; then
	echo "note: SIGINT came before the job started; no logs expected"
else
	check "SIGINT: every log file complete" whole "$TMP/int/i_clat.1.log"
	check "SIGINT: bw log complete" whole "$TMP/int/i_bw.1.log"
fi
check "SIGINT: no temp file left" test -z "$(ls -A "$TMP/int" | grep -v '^i_\(clat\|lat\|slat\|bw\)\.1\.log$')"

if python3 -c 'import pandas, numpy' 2>/dev/null && [ -f /usr/share/doc/fio/fiologparser_hist.py.gz ]; then
	zcat /usr/share/doc/fio/fiologparser_hist.py.gz >"$TMP/fiologparser_hist.py"
	check "fio's fiologparser_hist.py reads the histogram log" \
		python3 "$TMP/fiologparser_hist.py" "$TMP"/ilog/h_clat_hist.1.log
fi
done_testing
