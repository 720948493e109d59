/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system calls the syscalls and sampling families tell apart (enum
 * sc_call, iodig/syscalls.h): their tracefs names and their numbers on
 * this architecture, which both pass to their programs as rodata.
 */
#ifndef IODIG_PROBES_SC_CALLS_H
#define IODIG_PROBES_SC_CALLS_H

#include "iodig/syscalls.h"

/* "io_submit", as tracefs names its syscalls:sys_enter_<name> event. */
const char *sc_call_name(enum sc_call c);
/* Its number, -1 when this architecture has no such call. */
long sc_call_nr(enum sc_call c);

#endif /* IODIG_PROBES_SC_CALLS_H */
