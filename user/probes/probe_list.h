/* SPDX-License-Identifier: GPL-2.0 */
/* Every probe family, one line each: PROBE(name), matching
 * bpf/<name>.bpf.c and user/probes/<name>.c (which defines
 * `const struct probe_family <name>_probe`). */
PROBE(block)
PROBE(sched)
PROBE(iouring)
PROBE(syscalls)
PROBE(sampling)
PROBE(funcs)
PROBE(faults)
PROBE(counters)
