/* SPDX-License-Identifier: GPL-2.0 */
/* Every engine, one line each: ENGINE(symbol prefix).  Adding an engine is
 * one file in user/workload/engines/ (its options included) plus one line
 * here. */
ENGINE(psync)
ENGINE(libaio)
ENGINE(io_uring)
ENGINE(mmap)
