#!/bin/bash
# The layers of user/, lowest first: a file may include headers of its own
# layer or of layers below it, never above.  Also no include cycle between
# files.  Exits 1 naming each offending include.
set -u
cd "$(dirname "$0")/../.."
LAYERS=(base workload job target probes report run svg analysis cli)

rank() {
	local i
	for i in "${!LAYERS[@]}"; do
		[ "${LAYERS[$i]}" = "$1" ] && { echo "$i"; return; }
	done
	echo -1
}

bad=0
for d in user/*/; do
	d=${d#user/}; d=${d%/}
	[ "$(rank "$d")" -ge 0 ] || { echo "user/$d: not a known layer (add it to LAYERS in $0)"; bad=1; }
done
for f in $(find user -name '*.[ch]' | sort); do
	layer=$(echo "$f" | cut -d/ -f2)
	own=$(rank "$layer")
	while IFS=: read -r line inc; do
		dep=${inc%%/*}
		[ "$dep" = "$inc" ] && continue      # skeletons, iodig/*.h
		r=$(rank "$dep")
		[ "$r" -lt 0 ] && continue
		if [ "$r" -gt "$own" ]; then
			echo "$f:$line: $layer includes $inc, a layer above it"
			bad=1
		fi
	done < <(grep -n '^#include "' "$f" | sed -E 's/^([0-9]+):#include "([^"]+)".*/\1:\2/')
done
[ -f user/base/errbuf.h ] || { echo "user/base/errbuf.h missing: the check reads no tree"; bad=1; }
[ "$bad" -eq 0 ] && echo "layers: ${LAYERS[*]} (each includes only its own or lower ones)"
exit "$bad"
