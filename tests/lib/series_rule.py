# --steady's rule (workload/series.h, docs/trace-file.md), written again
# for the host tests to check iodig's figures against: a series' steady
# state begins at the first window of 5 intervals whose mean IOPS is
# within 5% of the mean IOPS from there to the end; a series shorter than
# two windows, or with no such window, is steady from its start.


def mean_iops(s, a, b):
    """I/Os over time of intervals [a, b) of the trace file's series s."""
    ns = sum(s["dur_ns"][a:b])
    return sum(s["ios"][a:b]) * 1e9 / ns if ns else 0


def steady_start(s):
    n = len(s["ios"])
    if n < 10:
        return 0
    for i in range(0, n - 4):
        rest = mean_iops(s, i, n)
        if rest > 0 and abs(mean_iops(s, i, i + 5) - rest) <= rest * 0.05:
            return i
    return 0


def steady_iops(series):
    """steady_iops of a repeat: each series' steady part, summed."""
    return sum(mean_iops(s, steady_start(s), len(s["ios"])) for s in series)
