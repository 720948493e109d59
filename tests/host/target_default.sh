# A job without filename= does what fio 3.33 does: its files (jobname.N.M, or filename_format) in the current directory, same names, sizes and I/O counts as fio's; --target=scratch puts it on iodig's scratch loop device instead; every report (text and JSON) names the target, its device and filesystem.
source tests/host/lib.sh
source tests/host/fault.lib
need_root
command -v fio >/dev/null || skip "needs fio"
mkdir -p "$TMP/iodig" "$TMP/fio" || exit 1
files() { (cd "$1" && find . -type f -printf '%P %s\n' | sort); }
ios() { jqr '.jobs | map("\(.jobname) \(.read.total_ios) \(.write.total_ios)") | join(",")' "$1"; }

JOB=(--name=dflt --rw=write --bs=4k --size=2m --numjobs=2 --name=rd --rw=randread
     --bs=4k --size=1m --name=fmt --filename_format='f.$jobname.$filenum' --rw=write
     --size=512k)
(cd "$TMP/iodig" && "$IODIG" run --no-probes --no-save --output-format=normal,json \
	"${JOB[@]}" >"$TMP/i.out" 2>"$TMP/i.err")
check "iodig ran in the current directory (exit $?: $(head -c 300 "$TMP/i.err"))" [ -s "$TMP/i.out" ]
(cd "$TMP/fio" && fio --output-format=json "${JOB[@]}" 2>"$TMP/f.err" | sed -n '/^{/,$p' >"$TMP/f.json")
split_report "$TMP/i.out"
check "the same files as fio's: $(files "$TMP/iodig" | tr '\n' ' ') vs $(files "$TMP/fio" | tr '\n' ' ')" \
	[ "$(files "$TMP/iodig")" = "$(files "$TMP/fio")" ]
check "fio made some ($(files "$TMP/fio" | wc -l))" [ "$(files "$TMP/fio" | wc -l)" -ge 3 ]
check "the same I/O counts as fio: $(ios "$TMP/i.out.json") vs $(ios "$TMP/f.json")" \
	[ "$(ios "$TMP/i.out.json")" = "$(ios "$TMP/f.json")" ]
fs=$(stat -f -c %T "$TMP")
check "JSON names the first job's file and its filesystem ($fs)" \
	[ "$(jqr '.iodig.targets[0] | "\(.path) \(.filesystem) \(.scratch)"' "$TMP/i.out.json")" = "./dflt.0.0 $fs false" ]
check "text names each job's target" grep -q "^target of dflt: ./dflt.0.0 on $fs" "$TMP/i.out.txt"

# --target=scratch: iodig's loop device, named as such; no file in the directory.
mkdir "$TMP/s" && cd "$TMP/s" || exit 1
"$IODIG" run --no-probes --no-save --output-format=normal,json --target=scratch \
	--name=s --rw=randread --bs=4k --size=4m >"$TMP/s.out" 2>"$TMP/s.err" &
pid=$!
wait $pid
check "--target=scratch runs (exit $?: $(head -c 300 "$TMP/s.err"))" [ -s "$TMP/s.out" ]
split_report "$TMP/s.out"
dev=$(jqr '.iodig.targets[0].path' "$TMP/s.out.json")
check "JSON: the scratch loop device ($dev)" \
	[ "$(jqr '.iodig.targets[0] | "\(.scratch) \(.device)"' "$TMP/s.out.json")" = "true ${dev#/dev/}" ]
check "JSON: a loop device" matches "$dev" '^/dev/loop[0-9]+$'
check "text: target line names it" grep -q "^target: $dev (iodig's scratch loop device" "$TMP/s.out.txt"
check "disk stats are the scratch device's" grep -q "^  ${dev#/dev/}: ios=" "$TMP/s.out.txt"
check "no file left in the directory" [ -z "$(ls -A "$TMP/s")" ]
check "the scratch device is gone" [ -z "$(scratch_devs_of "$pid")$(scratch_files_of "$pid")" ]
done_testing
