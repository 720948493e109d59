/* SPDX-License-Identifier: GPL-2.0 */
/* Durations as people read them: in the largest unit that is at least one. */
#ifndef IODIG_DURATION_H
#define IODIG_DURATION_H

/* The unit @ns reads best in, "s", "ms", "us" or "ns", into *@unit;
 * returns the nanoseconds in one of it, to divide @ns by. */
double duration_unit(double ns, const char **unit);

#endif /* IODIG_DURATION_H */
