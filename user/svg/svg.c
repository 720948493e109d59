// SPDX-License-Identifier: GPL-2.0
/* What every picture needs: XML escaping and its file in the --svg folder. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "svg/svg.h"

const char *svg_color(size_t i)
{
	static const char *const colors[] = {
		"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf",
	};

	return colors[i % (sizeof(colors) / sizeof(colors[0]))];
}

void svg_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
		}
	}
}

/* Opens DIR/NAME for writing, creating DIR. */
FILE *svg_file_open(const char *dir, const char *name, struct errbuf *err, int *ret)
{
	char path[4200];
	FILE *f;

	*ret = 0;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		*ret = err_set(err, errno, "option --svg: cannot create folder %s: %s", dir, strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		*ret = err_set(err, errno, "option --svg: cannot create %s: %s", path, strerror(errno));
	return f;
}

int svg_file_close(FILE *f, int ret, const char *dir, const char *name, struct errbuf *err)
{
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		return err_set(err, -ret, "option --svg: writing %s/%s failed: %s", dir, name, strerror(-ret));
	return 0;
}
