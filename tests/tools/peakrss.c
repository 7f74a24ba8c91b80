/*
 * peakrss.c - runs a command and reports its peak resident memory
 * (getrusage's ru_maxrss of the child, Linux: KiB), optionally under an
 * address-space limit (RLIMIT_AS). Used by tests/bench_memory.sh (peak
 * memory of each model's replay) and tests/memlimit.sh (a replay under a
 * limit a trace-length-proportional model would exceed).
 *
 * usage: peakrss [-o FILE] [-a MIB] -- COMMAND [ARG...]
 *   -o FILE  write "peak_kib N" to FILE (default: standard error)
 *   -a MIB   set RLIMIT_AS (soft and hard) to MIB MiB in the child
 * Exit status: the command's (128 + signal when killed), 125 when the
 * command could not be started, 2 on a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: peakrss [-o FILE] [-a MIB] -- COMMAND [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	unsigned long long mib = 0;
	int i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "-a") && i + 1 < argc) {
			char *end;
			errno = 0;
			mib = strtoull(argv[++i], &end, 10);
			if (errno || *end || mib == 0 || mib > (1ull << 30))
				return usage();
		} else {
			return usage();
		}
	}
	if (i >= argc)
		return usage();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "peakrss: fork: %s\n", strerror(errno));
		return 125;
	}
	if (pid == 0) {
		if (mib) {
			struct rlimit rl = { (rlim_t)mib << 20, (rlim_t)mib << 20 };
			if (setrlimit(RLIMIT_AS, &rl)) {
				fprintf(stderr, "peakrss: setrlimit(RLIMIT_AS, %llu MiB): %s\n", mib,
					strerror(errno));
				_exit(125);
			}
		}
		execvp(argv[i], argv + i);
		fprintf(stderr, "peakrss: cannot run %s: %s\n", argv[i], strerror(errno));
		_exit(125);
	}
	int st = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "peakrss: wait4: %s\n", strerror(errno));
			return 125;
		}
	}
	FILE *f = out ? fopen(out, "w") : stderr;
	if (!f) {
		fprintf(stderr, "peakrss: cannot write %s: %s\n", out, strerror(errno));
		return 125;
	}
	fprintf(f, "peak_kib %ld\n", ru.ru_maxrss);
	if (out && fclose(f)) {
		fprintf(stderr, "peakrss: cannot write %s: %s\n", out, strerror(errno));
		return 125;
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
