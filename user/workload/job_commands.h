/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's exec_prerun and exec_postrun: a shell command a worker runs
 * before its I/O and after it, its output in <jobname>.prerun.txt and
 * <jobname>.postrun.txt of the current directory.
 */
#ifndef IODIG_JOB_COMMANDS_H
#define IODIG_JOB_COMMANDS_H

/*
 * Runs "@cmd > @job_name.@mode.txt 2>&1" with /bin/sh -c, as fio's
 * exec_string builds and system()s it (so only the last command of a list
 * is redirected, as in fio), and waits for it.  The command gets no
 * blocked signals, which the worker's are.  Returns its wait status (0:
 * it exited 0), or -errno when it could not be started.
 */
int job_command_run(const char *cmd, const char *job_name, const char *mode);

#endif /* IODIG_JOB_COMMANDS_H */
