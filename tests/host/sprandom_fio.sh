# sprandom (fio's SSD preconditioning, newer than fio 3.33, which refuses it): the writes of a 4 MiB file with spr_op=0.25 and 8 regions are, offset for offset and in order, those of fio's algorithm as its sprandom.c describes it, modelled here from the description (the curve of invalid shares, regions of the physical size, draws from fio's taus88 seeded for sprandom), its new blocks in the order of the job's random_generator=lfsr cycle (iodig's rw=randwrite lfsr run, fio 3.33's register bit for bit); the byte count is the model's; fio's refusals (not random writes, another generator, norandommap=0, a bs not a power of 2) and iodig's (spr_op, too many regions) name the option.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "needs fio"
command -v python3 >/dev/null || skip "needs python3"
SIZE=4m OP=0.25 REGIONS=8
JOB=(--name=spr --filename=data --size=$SIZE --bs=4k --rw=randwrite --ioengine=psync)
mkdir "$TMP/f" "$TMP/i" || exit 1
# the lfsr cycle of the file's blocks, which sprandom's new blocks follow:
# iodig's, whose blocks fio 3.33's cycle has too, each once
LFSR=(--random_generator=lfsr --norandommap=1 --write_iolog=lfsr)
(cd "$TMP/f" && fio "${JOB[@]}" "${LFSR[@]}" --output-format=json >out.json 2>err)
(cd "$TMP/i" && "$IODIG" run --no-probes --no-save "${JOB[@]}" "${LFSR[@]}" >/dev/null 2>err)
check "lfsr cycles written ($(head -c 200 "$TMP/f/err" "$TMP/i/err"))" [ -s "$TMP/f/lfsr" -a -s "$TMP/i/lfsr" ]
(cd "$TMP/i" && "$IODIG" run --no-probes --no-save --output-format=json "${JOB[@]}" \
	--sprandom=1 --spr_op=$OP --spr_num_regions=$REGIONS --write_iolog=log >out.json 2>err)
rc=$?
check "iodig: sprandom ran ($(head -c 300 "$TMP/i/err"))" [ "$rc" = 0 ]

offsets() { awk '$3 == "write" { print $4 }' "$1"; }
offsets "$TMP/i/lfsr" >"$TMP/lfsr"
check "iodig's lfsr cycle has fio's blocks, each once" \
	[ "$(sort -n "$TMP/lfsr")" = "$(offsets "$TMP/f/lfsr" | sort -n)" ] && [ -z "$(sort "$TMP/lfsr" | uniq -d)" ]
offsets "$TMP/i/log" >"$TMP/got"
# the model, from fio's description of sprandom (not iodig's code)
python3 - $((4 << 20)) "$OP" "$REGIONS" "$TMP/lfsr" >"$TMP/want" <<'PY' || fail "model failed"
import math, sys
size, op, n = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
bs, scale, M64 = 4096, 10000, (1 << 64) - 1
lfsr = [int(l) for l in open(sys.argv[4])]
# the curve: validity evenly spaced from 1 to the GC block's, space 1/v
# accumulated, resampled at equal space, least valid region first
gc = 1 - 1 / (0.5 / op + 0.7)
lin = lambda a, b, i: a if n == 1 else a + i * ((b - a) / (n - 1.0))
v = [lin(1.0, gc, i) for i in range(n)]
x, acc = [], 0.0
for vi in v:
    acc += 1 / vi; x.append(acc)
def interp(t):
    if n == 1 or t <= x[0]: return v[0]
    if t >= x[-1]: return v[-1]
    for i in range(n - 1):
        if x[i] <= t <= x[i + 1]:
            return v[i] if abs(x[i + 1] - x[i]) < 1e-9 else v[i] + (v[i + 1] - v[i]) * ((t - x[i]) / (x[i + 1] - x[i]))
inv = [int(math.floor((1 - interp(lin(x[0], x[-1], i))) * scale + 0.5)) for i in range(n)][::-1]
phys = size + math.ceil(size * op)
phys = (phys + bs - 1) // bs * bs
per_region = phys // n // bs
# fio's taus88 for sprandom: its per-purpose seed number 22 of randseed 0x89, thread 1
seed = 0x89
for _ in range(4 + 22): seed = seed * 0x9e370001 & M64
seed = (seed + 22) & 0xffffffff
def lcg(x): return (x * 69069 ^ seed) & 0xffffffff
s = [0, 0, 0]; prev = 53
for k, m in enumerate((1, 7, 15)):
    prev = lcg(prev); prev = prev + m if prev < m else prev; s[k] = prev
def taus():
    s[0] = ((s[0] & 0xfffffffe) << 12 & 0xffffffff) ^ ((((s[0] << 13) & 0xffffffff) ^ s[0]) >> 19)
    s[1] = ((s[1] & 0xfffffff8) << 4 & 0xffffffff) ^ ((((s[1] << 2) & 0xffffffff) ^ s[1]) >> 25)
    s[2] = ((s[2] & 0xfffffff0) << 17 & 0xffffffff) ^ ((((s[2] << 3) & 0xffffffff) ^ s[2]) >> 11)
    return s[0] ^ s[1] ^ s[2]
for _ in range(6): taus()
draw = lambda: int((scale + 1.0) * (taus() / 4294967296.0))
out, region, left, rewrite, drawn, fresh = [], 0, per_region, [], [], iter(lfsr)
def write(off):
    out.append(off)
    if draw() <= (inv[region] if region < n else 0): drawn.append(off)
while len(out) < phys // bs:
    if rewrite:
        write(rewrite.pop(0)); continue
    if left == 0:
        if region >= n: break
        region += 1; rewrite, drawn = drawn, []
        left = max(per_region - len(rewrite), 0)
    off = next(fresh, None)
    if off is None: break
    left = max(left - 1, 0)
    write(off)
print("\n".join(map(str, out)))
print("rewrites", len(out) - len(set(out)), file=sys.stderr)
PY
n_want=$(wc -l <"$TMP/want") n_got=$(wc -l <"$TMP/got")
check "the same $n_want writes in the same order as the model (iodig: $n_got): $(diff "$TMP/want" "$TMP/got" | head -3 | tr '\n' ' ')" \
	cmp -s "$TMP/want" "$TMP/got"
rewrites=$(($(wc -l <"$TMP/want") - $(sort -u "$TMP/want" | wc -l)))
check "blocks are written again ($rewrites rewrites), every block at least once" \
	[ "$rewrites" -gt 0 ] && [ "$(sort -u "$TMP/got" | wc -l)" = "$(wc -l <"$TMP/lfsr")" ]
check "bytes written are the model's" \
	[ "$(jqr '.jobs[0].write.io_bytes' "$TMP/i/out.json")" = $((n_want * 4096)) ]

# refusals: each names the option, as fio refuses them
refused() { # refused CASE REGEX ARGS...
	local name=$1 re=$2; shift 2
	(cd "$TMP/i" && "$IODIG" run --no-probes --no-save --name=spr --filename=data \
		--size=1m --bs=4k --sprandom=1 "$@" >/dev/null 2>"$TMP/err.$name")
	local rc=$?
	check "$name: refused ($(head -c 200 "$TMP/err.$name"))" \
		[ $rc -ne 0 ] && grep -Eq "$re" "$TMP/err.$name"
}
refused read "sprandom needs random writes" --rw=read
refused randread "sprandom needs random writes" --rw=randread
refused tausworthe "random_generator=lfsr" --rw=randwrite --random_generator=tausworthe
refused randommap "norandommap=1" --rw=randwrite --norandommap=0
refused bs "power of 2" --rw=randwrite --bs=12k
refused op_zero "spr_op" --rw=randwrite --spr_op=0
refused op_big "spr_op" --rw=randwrite --spr_op=2
refused regions_zero "spr_num_regions" --rw=randwrite --spr_num_regions=0
refused regions_many "spr_num_regions 1000 is too many" --rw=randwrite --spr_num_regions=1000
done_testing
