# Sourced by assert.sh: a device with slaves (scenarios.sh's dm: dm-linear
# over nullb3 and nullb4), the same read job in iodig and fio 3.33, in
# text, terse and JSON.  Both list the dm device and then its slaves, with
# the slaves' aggregate on the device (fio's diskutil: their counters
# averaged over them); iodig's figures are the whole run's, fio's sampled
# every 250 ms (at most the job's).

# dm_sum SCENARIO FIELD: FIELD summed over the disks after the first
dm_sum() { q "$1" "[.disk_util[1:][].$2] | add // 0"; }

case_dm() {
	local names fnames slaves n ios agg sum fagg fsum fios tf ftf k t
	ran dm && ran fio_dm || return
	names=$(q dm '[.disk_util[].name] | join(" ")')
	fnames=$(q fio_dm '[.disk_util[].name] | join(" ")')
	[ "$names" = "$fnames" ] && ok "dm: iodig lists fio's disks in fio's order ($names)" ||
		fail "dm: iodig lists '$names', fio '$fnames'"
	slaves=$(echo $(cat "$R/dm-slaves.txt" 2>/dev/null))
	n=$(echo $slaves | wc -w)
	[ "$(echo ${names#* } | tr ' ' '\n' | sort | tr '\n' ' ')" = "$(echo $slaves | tr ' ' '\n' | sort | tr '\n' ' ')" ] &&
	[ "$n" -eq 2 ] && ok "dm: the slaves $slaves follow ${names%% *} in iodig" ||
		fail "dm: sysfs lists slaves '$slaves', iodig's disks after the first are '${names#* }'"
	# The job's reads, each 64 KiB bio one I/O on the bio-based dm device
	# and one request or merge on the slave its target maps it to.
	ios=$(q dm '.jobs[0].read.total_ios')
	check "dm: iodig's dm device counts the job's reads ($(q dm '.disk_util[0].read_ios') of $ios)" \
	      "$(q dm '.disk_util[0].read_ios') == $ios && $ios > 0"
	sum=$(dm_sum dm read_ios) agg=$(q dm '.disk_util[0].aggr_read_ios')
	check "dm: iodig's slaves' requests and merges add up to the job's reads ($sum + $(dm_sum dm read_merges) of $ios)" \
	      "$sum + $(dm_sum dm read_merges) == $ios"
	check "dm: iodig's aggr_read_ios ($agg) is fio's average of its slaves' ($sum / $n)" \
	      "$agg == int($sum / $n) && $agg > 0"
	check "dm: iodig's aggr_util ($(q dm '.disk_util[0].aggr_util')) is its busiest slave's" \
	      "$(q dm '.disk_util[0].aggr_util') == $(q dm '[.disk_util[1:][].util] | max')"
	# fio's samples lag the job: at most its reads, the same average.
	fios=$(q fio_dm '.jobs[0].read.total_ios')
	fsum=$(dm_sum fio_dm read_ios) fagg=$(q fio_dm '.disk_util[0].aggr_read_ios')
	check "dm: fio's dm device saw at most the job's reads ($(q fio_dm '.disk_util[0].read_ios') of $fios)" \
	      "$(q fio_dm '.disk_util[0].read_ios') <= $fios"
	check "dm: fio's aggr_read_ios ($fagg) is at most the job's reads and the average of its slaves' ($fsum / $n)" \
	      "$fagg <= $fios && $fagg == int($fsum / $n)"
	for k in aggr_read_ios aggr_write_ios aggr_read_merges aggr_write_merge aggr_read_ticks \
		 aggr_write_ticks aggr_in_queue aggr_util; do
		[ "$(q dm ".disk_util[0] | has(\"$k\")")" = true ] &&
		[ "$(q fio_dm ".disk_util[0] | has(\"$k\")")" = true ] ||
			fail "dm: JSON key $k missing on the dm device (iodig $(q dm ".disk_util[0] | has(\"$k\")"), fio $(q fio_dm ".disk_util[0] | has(\"$k\")"))"
	done
	check "dm: no slave has aggregate keys (iodig $(q dm '[.disk_util[1:][] | select(has("aggr_read_ios"))] | length'), fio $(q fio_dm '[.disk_util[1:][] | select(has("aggr_read_ios"))] | length'))" \
	      "$(q dm '[.disk_util[1:][] | select(has("aggr_read_ios"))] | length') == 0 && $(q fio_dm '[.disk_util[1:][] | select(has("aggr_read_ios"))] | length') == 0"
	# Terse: the same fields, the aggregate ("slaves") after the device's 9.
	tf=$(awk -F';' '{ print NF }' "$R/dm.terse" 2>/dev/null)
	ftf=$(awk -F';' '{ print NF }' "$R/fio_dm.terse" 2>/dev/null)
	check "dm: iodig's terse line has fio's number of fields (${tf:-none}, fio ${ftf:-none})" \
	      "${tf:-0} == ${ftf:-1} && ${tf:-0} == 121 + 4 * 9"
	for t in dm fio_dm; do
		grep -q ";${names%% *};[^;]*;[^;]*;[^;]*;[^;]*;[^;]*;[^;]*;[^;]*;[^;]*;slaves;" "$R/$t.terse" 2>/dev/null &&
			ok "dm: $t's terse line has the slaves' fields after ${names%% *}'s 9" ||
			fail "dm: $t's terse line lacks ';slaves;' after ${names%% *}'s 9 fields: $(grep -o ";${names%% *};.*" "$R/$t.terse" 2>/dev/null)"
	done
	# Text: fio's lines with the figures masked, iodig's aggregate as its JSON's.
	if [ -s "$R/dm.disks" ] && [ -s "$R/fio_dm.disks" ] &&
	   [ "$(sed -E 's/[0-9]+(\.[0-9]+)?/N/g' "$R/dm.disks")" = "$(sed -E 's/[0-9]+(\.[0-9]+)?/N/g' "$R/fio_dm.disks")" ]; then
		ok "dm: iodig's Disk stats lines are fio's but for the figures: $(head -n 1 "$R/dm.disks" | cut -c1-60)..."
	else
		fail "dm: iodig's Disk stats lines [$(tr '\n' '|' <"$R/dm.disks" 2>/dev/null)] differ from fio's [$(tr '\n' '|' <"$R/fio_dm.disks" 2>/dev/null)] beyond the figures"
	fi
	check "dm: iodig's text aggrios ($(grep -o 'aggrios=[0-9]*' "$R/dm.disks" 2>/dev/null)) is its JSON's $agg" \
	      "$(grep -o 'aggrios=[0-9]*' "$R/dm.disks" 2>/dev/null | cut -d= -f2) == $agg"
	DM_SUMMARY="dm $names: iodig ios $(q dm '.disk_util[0].read_ios') aggr $agg (slaves $sum), fio ios $(q fio_dm '.disk_util[0].read_ios') aggr $fagg (slaves $fsum), job $ios/$fios"
}
