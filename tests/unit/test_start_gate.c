// The workers' start gate (workload/start_gate.c): a worker process waiting at a shut gate in shared memory stays there until the gate opens, also when a stop is set meanwhile, then passes and reads what the opener told it, or turns back when a stop is set.
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "workload/start_gate.h"

struct shared {
	struct start_gate gate;
	volatile sig_atomic_t stop, own_stop;
	volatile sig_atomic_t passed;  /* set by the child once it passed */
};

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };

	nanosleep(&ts, NULL);
}

/* A child that waits at the gate; its exit status: 1 passed and told to
 * count events, 2 passed and told not to, 3 turned back. */
static pid_t waiter(struct shared *sh)
{
	pid_t pid = fork();

	if (pid == 0) {
		bool ok = start_gate_pass(&sh->gate, &sh->stop, &sh->own_stop);

		sh->passed = ok;
		_exit(!ok ? 3 : sh->gate.count_events ? 1 : 2);
	}
	return pid;
}

static int exit_code(pid_t pid)
{
	int status = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	if (sh == MAP_FAILED)
		SKIP("no shared anonymous mapping");

	/* shut: the child waits, then passes once it opens */
	start_gate_close(&sh->gate);
	pid = waiter(sh);
	CHECK(pid > 0);
	pause_ms(60);
	CHECK_MSG(waitpid(pid, &status, WNOHANG) == 0 && !sh->passed,
		  "the child passed a shut gate");
	start_gate_open(&sh->gate, true);
	CHECK_MSG(exit_code(pid) == 1, "the child did not pass the opened gate counting events");

	/* open already: it passes at once, told not to count */
	start_gate_close(&sh->gate);
	start_gate_open(&sh->gate, false);
	CHECK(exit_code(waiter(sh)) == 2);

	/* the run's stop while it waits: it goes on waiting for the gate,
	 * which then turns it back */
	start_gate_close(&sh->gate);
	sh->passed = 0;
	pid = waiter(sh);
	pause_ms(20);
	sh->stop = 1;
	pause_ms(40);
	CHECK_MSG(waitpid(pid, &status, WNOHANG) == 0, "the child left a shut gate on a stop");
	start_gate_open(&sh->gate, true);
	CHECK_MSG(exit_code(pid) == 3, "a stop did not turn the child back at the gate");

	/* so does the worker's own stop flag */
	sh->stop = 0;
	sh->own_stop = 1;
	CHECK(exit_code(waiter(sh)) == 3);

	munmap(sh, sizeof(*sh));
	return CHECK_DONE();
}
