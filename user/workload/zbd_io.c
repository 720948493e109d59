// SPDX-License-Identifier: GPL-2.0
/*
 * Where zonemode=zbd lets an I/O go, after fio 3.33's zbd_adjust_block,
 * zbd_convert_to_write_zone, zbd_find_zone and zbd_queue_io.
 */
#include "workload/zbd.h"

static unsigned int zone_of(const struct zbd *z, uint64_t offset)
{
	unsigned int i = (unsigned int)((offset - z->zones[0].start) / z->zone_size);

	return i < z->nr_zones ? i : z->nr_zones - 1;
}

static bool zone_full(const struct zbd_zone *zz, uint64_t need)
{
	return zz->has_wp && zz->wp + need > zz->cap_end;
}

static void close_zone(struct zbd *z, unsigned int idx)
{
	for (unsigned int i = 0; i < z->nr_open; i++) {
		if (z->open[i] != idx)
			continue;
		z->open[i] = z->open[--z->nr_open];
		break;
	}
	z->zones[idx].open = false;
}

/* fio's zbd_open_zone: without a limit every zone counts as open. */
static bool open_zone(struct zbd *z, unsigned int idx)
{
	struct zbd_zone *zz = &z->zones[idx];

	if (zz->offline)
		return false;
	if (!z->max_open)
		return true;
	if (zz->open)
		return zz->wp < zz->cap_end;
	if (z->nr_open >= z->max_open)
		return false;
	z->open[z->nr_open++] = idx;
	zz->open = true;
	return true;
}

/* fio's zbd_reset_zone: an empty zone needs none. */
static int reset_zone(struct zbd *z, struct zbd_zone *zz)
{
	int ret;

	if (zz->wp == zz->start)
		return 0;
	ret = z->device ? z->ops->reset(z->fd, &z->dev, zz->start) : 0;
	if (ret)
		return ret;
	z->valid_bytes -= zz->wp - zz->start;
	zz->wp = zz->start;
	z->resets++;
	return 0;
}

/* fio's pick_random_zone_idx: the offset's place in the region picks
 * one of the open zones. */
static unsigned int pick_open(const struct zbd *z, uint64_t offset)
{
	return (unsigned int)((offset - z->region_start) * z->nr_open /
			      z->region_len);
}

/* fio's zbd_convert_to_write_zone, single-threaded: an open zone with
 * room, else the next zone that opens, else any open zone with room. */
static int write_zone(struct zbd *z, uint64_t offset, uint32_t min_bs)
{
	unsigned int idx = zone_of(z, offset);

	if (z->max_open && z->nr_open)
		idx = z->open[pick_open(z, offset) % z->nr_open];
	if (!zone_full(&z->zones[idx], min_bs) && (!z->max_open || z->zones[idx].open))
		return (int)idx;
	for (unsigned int n = z->nr_zones; n > 0; n--) {
		idx = (idx + 1) % z->nr_zones;
		if (z->zones[idx].has_wp && !z->zones[idx].open && open_zone(z, idx))
			return (int)idx;
	}
	for (unsigned int i = 0; i < z->nr_open; i++)
		if (!zone_full(&z->zones[z->open[i]], min_bs))
			return (int)z->open[i];
	return -1;
}

/* fio's zbd_dec_and_reset_write_cnt */
static bool reset_pick(struct zbd *z)
{
	if (z->write_cnt)
		z->write_cnt--;
	if (z->write_cnt)
		return false;
	zbd_reset_write_cnt(z);
	return true;
}

/* fio's zbd_adjust_block: a write to a conventional zone is taken where
 * it is, never opening the zone (an open conventional zone would take a
 * slot of max_open_zones and send later writes nowhere), and cut so as
 * not to run into a sequential zone after it. */
static bool conventional_write(const struct zbd *z, unsigned int idx,
			       uint64_t offset, uint32_t *len, uint32_t min_bs)
{
	uint64_t next = z->zones[idx].start + z->zone_size;

	if (idx + 1 >= z->nr_zones || !z->zones[idx + 1].has_wp ||
	    offset + *len <= next)
		return true;
	if (offset + min_bs > next)
		return false;
	*len = (uint32_t)((next - offset) / min_bs * min_bs);
	return true;
}

static bool adjust_write(struct zbd *z, uint64_t *offset, uint32_t *len,
			 int *ret)
{
	uint32_t min_bs = z->job->bs_min[DDIR_WRITE];
	unsigned int idx = zone_of(z, *offset);
	struct zbd_zone *zz;
	uint64_t room;
	int pick;

	if (*len > z->zone_size)
		return false;
	if (!z->zones[idx].has_wp && !z->zones[idx].offline)
		return conventional_write(z, idx, *offset, len, min_bs);
	if (!open_zone(z, idx)) {
		pick = write_zone(z, *offset, min_bs);
		if (pick < 0)
			return false;
		idx = (unsigned int)pick;
	}
	zz = &z->zones[idx];
	if (z->job->zones.reset_frequency > 0 &&
	    z->valid_bytes >= (uint64_t)((double)z->region_len *
					 z->job->zones.reset_threshold) &&
	    reset_pick(z))
		zz->reset_due = true;
	if (zz->reset_due || zone_full(zz, min_bs)) {
		zz->reset_due = false;
		*ret = reset_zone(z, zz);
		if (*ret || zz->cap_end - zz->start < min_bs)
			return false;
	}
	if (!zz->has_wp)
		return true;
	*offset = zz->wp;
	room = zz->cap_end - zz->wp;
	if (room < *len)
		*len = (uint32_t)(room / min_bs * min_bs);
	return *len >= min_bs;
}

/* fio's zbd_find_zone: the nearest zone (only later ones for a
 * sequential job) with at least @min_bs written. */
static int find_data_zone(const struct zbd *z, unsigned int from,
			  uint32_t min_bs, bool random)
{
	for (unsigned int d = 1; d < z->nr_zones; d++) {
		unsigned int up = from + d;

		if (up < z->nr_zones && !z->zones[up].offline &&
		    z->zones[up].start + min_bs <= z->zones[up].wp)
			return (int)up;
		if (!random && up >= z->nr_zones)
			break;
		if (random && d <= from && !z->zones[from - d].offline &&
		    z->zones[from - d].start + min_bs <= z->zones[from - d].wp)
			return (int)(from - d);
	}
	return -1;
}

static bool adjust_read(struct zbd *z, uint64_t *offset, uint32_t *len)
{
	uint32_t min_bs = z->job->bs_min[DDIR_READ];
	bool random = rw_is_random(z->job->rw);
	unsigned int orig = zone_of(z, *offset);
	struct zbd_zone *zz = &z->zones[orig];
	uint64_t range = zz->wp - zz->start, cut;
	int found;

	if (!zz->has_wp || z->job->zones.read_beyond_wp)
		return true;
	if (range < min_bs || (!random && *offset + min_bs > zz->wp)) {
		found = find_data_zone(z, orig, min_bs, random);
		if (found < 0)
			return false;
		zz = &z->zones[found];
		range = zz->wp - zz->start;
		if (!random)
			*offset = zz->start;
	}
	if (range <= *len)
		*offset = zz->start;
	else if (random)
		*offset = zz->start + ((*offset - z->zones[orig].start) %
				       (range - *len)) / min_bs * min_bs;
	if (!zz->has_wp)
		return true;
	cut = (zz->wp - *offset) / min_bs * min_bs;
	if (cut < *len)
		*len = (uint32_t)cut;
	return *len > 0;
}

bool zbd_adjust(struct zbd *z, enum ddir d, uint64_t *offset, uint32_t *len,
		int *ret)
{
	*ret = 0;
	if (!z->on)
		return true;
	return d == DDIR_WRITE ? adjust_write(z, offset, len, ret) :
				 adjust_read(z, offset, len);
}

/* fio's zbd_queue_io: a write moves its zone's write pointer; a zone
 * written full is closed. */
static void written(struct zbd *z, uint64_t offset, uint32_t len)
{
	unsigned int idx = zone_of(z, offset);
	struct zbd_zone *zz;
	uint64_t end;

	zz = &z->zones[idx];
	if (!zz->has_wp)
		return;
	end = offset + len < zz->cap_end ? offset + len : zz->cap_end;
	if (zz->wp <= end)
		z->valid_bytes += end - zz->wp;
	zz->wp = end;
	if (end >= zz->cap_end && zz->open)
		close_zone(z, idx);
}

void zbd_taken(struct zbd *z, struct offsets *o, enum ddir d, uint64_t rel,
	       uint32_t len)
{
	if (!z->on)
		return;
	o->last_start[d] = rel;
	o->last_pos[d] = rel + len;
	if (d == DDIR_WRITE)
		written(z, z->region_start + rel, len);
}
