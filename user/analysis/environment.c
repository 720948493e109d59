// SPDX-License-Identifier: GPL-2.0
/*
 * Environment facts for the trace file.  Everything comes from /proc and
 * /sys; a fact the kernel does not expose is written as "unavailable" so
 * the reader can tell "not recorded" from "recorded as empty".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "analysis/environment.h"

#define UNAVAILABLE "unavailable"

/* ---- SHA-256 (FIPS 180-4), for the kernel config digest ---- */

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, h, sizeof(a));
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = ROR(a[4], 6) ^ ROR(a[4], 11) ^ ROR(a[4], 25);
		uint32_t ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
		uint32_t t1 = a[7] + s1 + ch + sha_k[i] + w[i];
		uint32_t s0 = ROR(a[0], 2) ^ ROR(a[0], 13) ^ ROR(a[0], 22);
		uint32_t maj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);

		memmove(a + 1, a, 7 * sizeof(uint32_t));
		a[4] += t1;
		a[0] = t1 + s0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += a[i];
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const unsigned char *p = data;
	unsigned char tail[128] = { 0 };
	size_t full = len / 64 * 64, rest = len - full, tlen;
	uint64_t bits = (uint64_t)len * 8;

	for (size_t off = 0; off < full; off += 64)
		sha_block(h, p + off);
	memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	tlen = rest + 9 <= 64 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
	sha_block(h, tail);
	if (tlen == 128)
		sha_block(h, tail + 64);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", h[i]);
}

/* ---- small readers ---- */

/* First line of a sysfs/procfs file, newline stripped; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* Reads a whole file through zlib, which passes plain files through, so
 * /proc/config.gz and /boot/config-* share one path. */
static char *read_maybe_gz(const char *path, size_t *len)
{
	gzFile gz = gzopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	int n;

	*len = 0;
	if (!gz)
		return NULL;
	for (;;) {
		if (cap - *len < 65536) {
			char *p = realloc(buf, cap + 262144);

			if (!p) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
			cap += 262144;
		}
		n = gzread(gz, buf + *len, (unsigned int)(cap - *len - 1));
		if (n <= 0) {
			if (n < 0) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		*len += (size_t)n;
	}
	gzclose(gz);
	if (buf)
		buf[*len] = 0;
	return buf;
}

int environment_config_relevant(const char *opt)
{
	static const char *const prefixes[] = {
		"CONFIG_BPF", "CONFIG_BLK", "CONFIG_BLOCK", "CONFIG_DAX", "CONFIG_FS_DAX",
		"CONFIG_IO_URING", "CONFIG_IOSCHED", "CONFIG_MQ_IOSCHED", "CONFIG_DEBUG_INFO_BTF",
		"CONFIG_PREEMPT", "CONFIG_HZ", "CONFIG_ZRAM", "CONFIG_BLK_DEV_LOOP",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(opt, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v && v[0] ? v : UNAVAILABLE));
}

static struct json_object *kernel_config(void)
{
	struct json_object *o = json_object_new_object(), *lines = json_object_new_object();
	char path[256], hex[65], *text = NULL, *save = NULL;
	const char *source = NULL;
	struct utsname u;
	size_t len = 0;

	if (!access("/proc/config.gz", R_OK)) {
		source = "/proc/config.gz";
	} else if (!uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		if (!access(path, R_OK))
			source = path;
	}
	if (source)
		text = read_maybe_gz(source, &len);
	if (!text) {
		add_str(o, "source", UNAVAILABLE);
		add_str(o, "sha256", UNAVAILABLE);
		json_object_put(lines);
		return o;
	}
	sha256_hex(text, len, hex);
	add_str(o, "source", source);
	add_str(o, "sha256", hex);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *eq;

		/* "# CONFIG_X is not set" is how Kconfig writes n */
		if (!strncmp(l, "# CONFIG_", 9) && strstr(l, " is not set")) {
			*strstr(l, " is not set") = 0;
			if (environment_config_relevant(l + 2))
				json_object_object_add(lines, l + 2, json_object_new_string("n"));
			continue;
		}
		eq = strchr(l, '=');
		if (strncmp(l, "CONFIG_", 7) || !eq)
			continue;
		*eq = 0;
		if (environment_config_relevant(l))
			json_object_object_add(lines, l, json_object_new_string(eq + 1));
	}
	json_object_object_add(o, "options", lines);
	free(text);
	return o;
}

static struct json_object *cpu_info(void)
{
	struct json_object *o = json_object_new_object();
	char line[512], model[256] = "";
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(model, sizeof(model), "%s", colon + 2);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	add_str(o, "model", model);
	json_object_object_add(o, "online", json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_object_add(o, "configured", json_object_new_int((int)sysconf(_SC_NPROCESSORS_CONF)));
	return o;
}

static struct json_object *memory_info(void)
{
	struct json_object *o = json_object_new_object();
	char line[256];
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
			json_object_object_add(o, "total_kib", json_object_new_int64((int64_t)kib));
	}
	if (f)
		fclose(f);
	return o;
}

/* The active scheduler is the bracketed one: "mq-deadline [none]". */
static void active_scheduler(const char *line, char *out, size_t size)
{
	const char *l = strchr(line, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r)
		snprintf(out, size, "%.*s", (int)(r - l - 1), l + 1);
	else
		snprintf(out, size, "%s", line);
}

static struct json_object *device_info(const char *disk)
{
	static const char *const attrs[] = {
		"nr_requests", "logical_block_size", "physical_block_size", "rotational",
		"write_cache", "max_sectors_kb", "read_ahead_kb", "nomerges", "rq_affinity",
		"io_poll", "dax",
	};
	struct json_object *o = json_object_new_object();
	char path[512], val[256], sched[128];

	add_str(o, "name", disk);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	read_line(path, val, sizeof(val));
	active_scheduler(val, sched, sizeof(sched));
	add_str(o, "scheduler", sched);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, attrs[i]);
		read_line(path, val, sizeof(val));
		add_str(o, attrs[i], val);
	}
	/* Only some kernels expose the NOWAIT capability in sysfs; without it
	 * io_uring punts every request to io-wq. */
	snprintf(path, sizeof(path), "/sys/block/%s/queue/nowait", disk);
	read_line(path, val, sizeof(val));
	add_str(o, "nowait", val[0] ? val : "not exposed by this kernel");
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", disk);
	read_line(path, val, sizeof(val));
	if (val[0])
		add_str(o, "model", val);
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", disk);
	read_line(path, val, sizeof(val));
	if (val[0])
		add_str(o, "loop_backing_file", val);
	snprintf(path, sizeof(path), "/sys/block/%s/size", disk);
	read_line(path, val, sizeof(val));
	add_str(o, "size_sectors", val);
	return o;
}

void environment_set_scheduler(struct json_object *env, const char *disk,
			       const char *sched)
{
	struct json_object *devs = NULL, *name;

	if (!json_object_object_get_ex(env, "devices", &devs))
		return;
	for (size_t i = 0; i < json_object_array_length(devs); i++) {
		struct json_object *dev = json_object_array_get_idx(devs, i);

		if (json_object_object_get_ex(dev, "name", &name) &&
		    !strcmp(json_object_get_string(name), disk))
			add_str(dev, "scheduler", sched);
	}
}

int environment_collect(const char *const *disks, size_t nr_disks,
			struct json_object **out, struct errbuf *err)
{
	struct json_object *o = json_object_new_object(), *k, *devs;
	char buf[4096];
	struct utsname u;

	*out = NULL;
	if (!o)
		return err_set(err, ENOMEM, "out of memory recording the environment");
	k = json_object_new_object();
	if (!uname(&u)) {
		add_str(k, "release", u.release);
		add_str(k, "version", u.version);
		add_str(k, "machine", u.machine);
	}
	/* every clock read (the kernel's timestamps, iodig's own timing) costs
	 * what the clocksource costs: hpet against tsc is no fair comparison */
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf,
		  sizeof(buf));
	add_str(k, "clocksource", buf[0] ? buf : UNAVAILABLE);
	json_object_object_add(k, "config", kernel_config());
	json_object_object_add(o, "kernel", k);
	read_line("/proc/cmdline", buf, sizeof(buf));
	add_str(o, "cmdline", buf);
	json_object_object_add(o, "cpu", cpu_info());
	json_object_object_add(o, "memory", memory_info());
	devs = json_object_new_array();
	for (size_t i = 0; i < nr_disks; i++)
		if (disks[i] && disks[i][0])
			json_object_array_add(devs, device_info(disks[i]));
	json_object_object_add(o, "devices", devs);
	*out = o;
	return 0;
}
