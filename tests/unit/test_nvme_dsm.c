// io_uring_cmd's trims as NVMe Dataset Management ranges: a unit's one range or its trim_range list becomes little-endian ranges of whole blocks (NLB counted from 1, SLBA in blocks), as the NVM Command Set defines them; a range not of whole blocks, empty or too long for one range is refused.
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "workload/engines/nvme_dev.h"
#include "tests/lib/check.h"

static void one_range(void)
{
	struct nvme_dsm_range r[1];
	struct io_unit u = { .offset = 1 << 20, .len = 12288 };

	memset(r, 0xff, sizeof(r));
	CHECK(nvme_dsm_ranges(&u, 12, r) == 1);
	CHECK(le64toh(r[0].slba) == 256);
	CHECK(le32toh(r[0].nlb) == 3);
	CHECK(r[0].cattr == 0);
	/* 512-byte blocks: the same bytes are 8 times the blocks */
	CHECK(nvme_dsm_ranges(&u, 9, r) == 1);
	CHECK(le64toh(r[0].slba) == 2048 && le32toh(r[0].nlb) == 24);
}

static void range_list(void)
{
	static struct trim_range tr[TRIM_RANGES_MAX];
	static struct nvme_dsm_range r[TRIM_RANGES_MAX];
	struct io_unit u = { .buf = tr, .nr_ranges = 3 };

	tr[0] = (struct trim_range){ 8192, 4096 };
	tr[1] = (struct trim_range){ 0, 65536 };
	tr[2] = (struct trim_range){ 1ull << 40, 32768 };
	/* offset and len (the last range's, the sum) are not what is sent */
	u.offset = tr[2].start;
	u.len = 4096 + 65536 + 32768;
	CHECK(nvme_dsm_ranges(&u, 12, r) == 3);
	CHECK(le64toh(r[0].slba) == 2 && le32toh(r[0].nlb) == 1);
	CHECK(le64toh(r[1].slba) == 0 && le32toh(r[1].nlb) == 16);
	CHECK(le64toh(r[2].slba) == (1ull << 28) && le32toh(r[2].nlb) == 8);
	for (unsigned int i = 0; i < TRIM_RANGES_MAX; i++)
		tr[i] = (struct trim_range){ (uint64_t)i * 8192, 4096 };
	u.nr_ranges = TRIM_RANGES_MAX;
	CHECK(nvme_dsm_ranges(&u, 12, r) == (int)TRIM_RANGES_MAX);
	CHECK(le64toh(r[255].slba) == 510 && le32toh(r[255].nlb) == 1);
}

static void refused(void)
{
	struct trim_range tr[2] = { { 0, 4096 }, { 4096, 2048 } };
	struct nvme_dsm_range r[2];
	struct io_unit u = { .offset = 512, .len = 4096 };

	CHECK(nvme_dsm_ranges(&u, 12, r) == -EINVAL);   /* offset not a block */
	u.offset = 0, u.len = 0;
	CHECK(nvme_dsm_ranges(&u, 12, r) == -EINVAL);   /* empty */
	u = (struct io_unit){ .buf = tr, .nr_ranges = 2, .len = 6144 };
	CHECK(nvme_dsm_ranges(&u, 12, r) == -EINVAL);   /* a short last block */
	CHECK(nvme_dsm_ranges(&u, 9, r) == 2);
	tr[1].len = (uint64_t)UINT32_MAX * 512 + 512;   /* 2^32 blocks */
	CHECK(nvme_dsm_ranges(&u, 9, r) == -EINVAL);
}

int main(void)
{
	one_range();
	range_list();
	refused();
	return CHECK_DONE();
}
