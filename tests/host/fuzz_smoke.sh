# Every libFuzzer target replays its regression inputs and fuzzes ~10 s (FUZZ_SMOKE_SECONDS) without a crash, leak or hang. timeout: 240
set -u
OUT=${OUT:-build}
names=()
for b in "$OUT"/fuzz/bin/fuzz_*; do
	[ -x "$b" ] && [[ "$b" != *.d ]] && names+=("${b##*/fuzz_}")
done
[ ${#names[@]} -gt 0 ] || { echo "skipped: no fuzz targets built in $OUT/fuzz/bin (make fuzz-build; needs clang and libclang-rt-14-dev)"; exit 77; }
# A target whose source exists must have been built, or it would go unfuzzed.
for src in tests/fuzz/fuzz_*.c; do
	n=${src##*/fuzz_}; n=${n%.c}
	[ -x "$OUT/fuzz/bin/fuzz_$n" ] || { echo "FAIL: $src has no binary $OUT/fuzz/bin/fuzz_$n" >&2; exit 1; }
done
FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-10} tests/fuzz/run.sh --smoke "${names[@]}"
