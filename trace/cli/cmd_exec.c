/*
 * cmd_exec.c - `weft-trace exec`: run a CUDA program (built with nvcc
 * -cudart shared) on weft's CUDA runtime, libcudart.so.13 (trace/cudart/),
 * and report what it ran: every launch is emulated, and with -o the whole
 * run is one trace, which the library writes when the program exits.
 *
 * The library is found before CUDA's own through LD_LIBRARY_PATH; it is
 * configured through the environment (WEFT_CUDART_*, trace/cudart/rt_init.c)
 * and hands back a summary in a report file in a private temporary
 * directory (trace/cudart/rt_exit.c), which tells whether it was loaded at
 * all and whether everything the program asked for could be done.
 * docs/cuda-programs.md describes it all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "common/file.h"
#include "common/numparse.h"
#include "common/pool.h"

static const char exec_usage[] =
	"usage: weft-trace exec [-o FILE.wtr [--level N]] [--max-launch-insts N]\n"
	"                       [--max-thread-insts N] [--max-device-mem SIZE]\n"
	"                       [--ptx-dir DIR] [-j N] [-q] [--] PROGRAM [ARGS...]\n"
	"\n"
	"Runs a CUDA program built with `nvcc -cudart shared` on weft's CUDA runtime\n"
	"(a libcudart.so.13 that LD_LIBRARY_PATH puts before CUDA's own): every kernel\n"
	"launch runs in the emulator, thread by thread. With -o, the whole run is one\n"
	"trace, written when the program exits. The program's output is its own;\n"
	"weft's summary (launches, instructions, the trace) goes to stderr.\n"
	"Options end at PROGRAM: what follows it is the program's.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE     write a trace of every launch to FILE (it appears only\n"
	"                        complete, when the program exits; docs/cli.md)\n"
	"  --level N             zstd compression level of the trace, 1..19 (default 1)\n"
	"  --max-launch-insts N  the instruction budget of each launch (default 1e10):\n"
	"                        a kernel that runs past it stops, as a fault\n"
	"  --max-thread-insts N  the thread instructions of all launches together\n"
	"  --max-device-mem SIZE the device memory the program may hold at once, in\n"
	"                        bytes or with K, M, G or T; default: this machine's\n"
	"  --ptx-dir DIR         write the PTX of each module the program loads into\n"
	"                        DIR (what the file:line of weft's messages refer to)\n"
	"  -j, --jobs N          emulate a launch's CTAs on N threads (default 0: one\n"
	"                        per CPU); launches with global atomics, fences,\n"
	"                        volatile global accesses or clock reads run on one;\n"
	"                        the trace and results are the same for every N\n"
	"  -q, --quiet           no summary, only errors\n"
	"  -h, --help            show this help\n"
	"  --version             print \"weft-trace VERSION\"\n"
	"\n"
	"Environment: WEFT_CUDART_DIR, the directory holding weft's libcudart.so.13\n"
	"(default: lib/weft beside this program's directory when installed, or\n"
	"bin/cudart in a build tree).\n"
	"\n"
	"Exit status: 0 the program exited 0 and weft did all it asked; 1 the program\n"
	"exited with another status; 2 bad usage, the program could not be started,\n"
	"did not use weft's runtime, was killed by a signal, or asked for what weft\n"
	"cannot do (an unsupported call, a kernel it cannot run or that faulted, a\n"
	"limit reached: the error lines above say which); 3 internal error\n"
	"(docs/cli.md).\n";

/* The report is weft's own file in a private directory; a few hundred
 * bytes. Anything bigger is not one. */
#define REPORT_MAX_BYTES 65536

struct report {
	unsigned long long launches, ctas, thread_insts, warp_insts, device_bytes_peak, failures;
	double emu_seconds;
	char first_failure[2048];
	char trace[PATH_MAX + 600];
};

/* ---- where the library is ---- */

static int has_cudart(const char *dir)
{
	char p[PATH_MAX];
	return snprintf(p, sizeof(p), "%s/libcudart.so.13", dir) < (int)sizeof(p) && access(p, R_OK) == 0;
}

/* The directory holding weft's libcudart.so.13 into dir; 0, or an exit
 * status after the message. */
static int find_cudart(char *dir)
{
	const char *env = getenv("WEFT_CUDART_DIR");
	if (env) {
		if (!realpath(env, dir) || !has_cudart(dir)) {
			weft_cli_say("WEFT_CUDART_DIR=%.400s holds no libcudart.so.13; point it at weft's "
				     "(bin/cudart in a build tree, PREFIX/lib/weft when installed)",
				     env);
			return 2;
		}
		return 0;
	}
	char exe[PATH_MAX], a[PATH_MAX + 16], b[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		weft_cli_say("%s", "cannot find this program's directory (/proc/self/exe); set WEFT_CUDART_DIR "
			     "to the directory holding weft's libcudart.so.13");
		return 2;
	}
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(a, sizeof(a), "%s/../lib/weft", exe);
	snprintf(b, sizeof(b), "%s/cudart", exe);
	if (has_cudart(a) && realpath(a, dir))
		return 0;
	if (has_cudart(b) && realpath(b, dir))
		return 0;
	weft_cli_say("weft's libcudart.so.13 is in neither %.400s nor %.400s; build it with `make`, or set "
		     "WEFT_CUDART_DIR",
		     a, b);
	return 2;
}

/* ---- the environment the program runs in ---- */

static const char *const cudart_vars[] = {
	"WEFT_CUDART_TRACE", "WEFT_CUDART_LEVEL", "WEFT_CUDART_MAX_LAUNCH_INSTS",
	"WEFT_CUDART_MAX_THREAD_INSTS", "WEFT_CUDART_MAX_DEVICE_MEM", "WEFT_CUDART_PTX_DIR",
	"WEFT_CUDART_REPORT", "WEFT_CUDART_JOBS",
};

/* path made absolute (the program may change directory) into out. */
static int absolute(const char *path, char *out, size_t len)
{
	if (path[0] == '/')
		return snprintf(out, len, "%s", path) < (int)len ? 0 : -1;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	return snprintf(out, len, "%s/%s", cwd, path) < (int)len ? 0 : -1;
}

static int set_env(const char *name, const char *value)
{
	if (setenv(name, value, 1)) {
		weft_cli_say("cannot set %s: %s", name, strerror(errno));
		return 3;
	}
	return 0;
}

/* ---- running it ---- */

/* Starts argv[0] with argv; waits for it. 0 with *status (waitpid's), or
 * an exit status after the message. */
static int run_program(char **argv, int *status)
{
	int pfd[2];
	if (pipe(pfd) || fcntl(pfd[1], F_SETFD, FD_CLOEXEC)) {
		weft_cli_say("cannot start %.400s: pipe: %s", argv[0], strerror(errno));
		return 3;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		weft_cli_say("cannot start %.400s: fork: %s", argv[0], strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return 3;
	}
	if (pid == 0) {
		close(pfd[0]);
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(pfd[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	close(pfd[1]);
	/* Ctrl-C reaches the program; weft waits to report what it left */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	int e = 0;
	ssize_t r;
	while ((r = read(pfd[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	pid_t w;
	while ((w = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (r == (ssize_t)sizeof(e)) {
		weft_cli_say("cannot run %.400s: %s", argv[0], strerror(e));
		return 2;
	}
	if (w < 0) {
		weft_cli_say("waiting for %.400s: %s", argv[0], strerror(errno));
		return 3;
	}
	return 0;
}

/* Reads the library's report; 0, -1 when there is none, or 3 after a
 * message when it is not one. */
static int read_report(const char *path, struct report *r)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	if (st.st_size > REPORT_MAX_BYTES) {
		weft_cli_say("the runtime's report %s is %lld bytes, not a report", path, (long long)st.st_size);
		return 3;
	}
	char *text;
	size_t len;
	if (weft_file_read(path, &text, &len) != WEFT_FILE_OK) {
		weft_cli_say("cannot read the runtime's report %s", path);
		return 3;
	}
	memset(r, 0, sizeof(*r));
	int ok = strncmp(text, "weft-cudart-report 1\n", 21) == 0;
	for (char *line = text, *next; ok && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		char *sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		const char *v = sp + 1;
		if (!strcmp(line, "launches"))
			r->launches = strtoull(v, NULL, 10);
		else if (!strcmp(line, "ctas"))
			r->ctas = strtoull(v, NULL, 10);
		else if (!strcmp(line, "thread_insts"))
			r->thread_insts = strtoull(v, NULL, 10);
		else if (!strcmp(line, "warp_insts"))
			r->warp_insts = strtoull(v, NULL, 10);
		else if (!strcmp(line, "device_bytes_peak"))
			r->device_bytes_peak = strtoull(v, NULL, 10);
		else if (!strcmp(line, "failures"))
			r->failures = strtoull(v, NULL, 10);
		else if (!strcmp(line, "emu_seconds"))
			r->emu_seconds = strtod(v, NULL);
		else if (!strcmp(line, "first_failure"))
			snprintf(r->first_failure, sizeof(r->first_failure), "%s", v);
		else if (!strcmp(line, "trace"))
			snprintf(r->trace, sizeof(r->trace), "%s", v);
	}
	free(text);
	if (!ok || !r->trace[0]) {
		weft_cli_say("the runtime's report %s is not one weft-trace reads (a different weft's "
			     "libcudart.so.13?)",
			     path);
		return 3;
	}
	return 0;
}

/* The summary; the trace named as the user gave it (tpath). */
static void print_summary(const char *prog, int status, const struct report *r, const char *tpath)
{
	if (WIFEXITED(status))
		fprintf(stderr, "%-16s%s, exit status %d\n", "program", prog, WEXITSTATUS(status));
	fprintf(stderr, "%-16s%llu\n", "launches", r->launches);
	fprintf(stderr, "%-16s%llu\n", "CTAs", r->ctas);
	fprintf(stderr, "%-16s%llu\n", "thread insts", r->thread_insts);
	fprintf(stderr, "%-16s%llu\n", "warp insts", r->warp_insts);
	fprintf(stderr, "%-16s%.6f s\n", "emulation", r->emu_seconds);
	fprintf(stderr, "%-16s%.1f MiB at most\n", "device memory", (double)r->device_bytes_peak / 1048576.0);
	if (!strncmp(r->trace, "written ", 8)) {
		struct stat st;
		const char *p = r->trace + 8;
		if (stat(p, &st) == 0)
			fprintf(stderr, "%-16s%s (%lld bytes)\n", "trace", tpath ? tpath : p, (long long)st.st_size);
	} else if (!strncmp(r->trace, "not-written ", 12)) {
		fprintf(stderr, "%-16snot written: %s\n", "trace", r->trace + 12);
	}
}

/* What the run comes to (the exit status, after its message). */
static int outcome(const char *prog, int status, int have, const struct report *r, const char *dir)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		weft_cli_say("%.400s was killed by signal %d (%s)%s", prog, sig, strsignal(sig),
			     have ? "" : "; no trace was written");
		return 2;
	}
	if (!have) {
		weft_cli_say("%.400s exited (status %d) without weft's libcudart.so.13 having run: it was "
			     "not built with nvcc -cudart shared, or it finds CUDA's own library first (an "
			     "RPATH; check with `LD_LIBRARY_PATH=%.400s ldd %.400s | grep cudart`), or it "
			     "ended with _exit(); no trace was written",
			     prog, WEXITSTATUS(status), dir, prog);
		return 2;
	}
	if (r->failures) {
		weft_cli_say("%.400s asked for what weft could not do (%llu time%s; the first: %.1200s)", prog,
			     r->failures, r->failures == 1 ? "" : "s", r->first_failure);
		return 2;
	}
	if (WEXITSTATUS(status)) {
		weft_cli_say("%.400s exited with status %d", prog, WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

int weft_cmd_exec(int argc, char **argv)
{
	const char *tpath = NULL, *ptx_dir = NULL;
	const char *level = NULL, *max_launch = NULL, *max_thread = NULL, *max_mem = NULL, *jobs = NULL;
	int quiet = 0;
	char **prog = NULL;
	uint64_t n;

	static const struct weft_opt opts[] = {
		{ "output", 'o', WEFT_OPT_ARG, 'o' },
		{ "level", 0, WEFT_OPT_ARG, 'l' },
		{ "max-launch-insts", 0, WEFT_OPT_ARG, 'L' },
		{ "max-thread-insts", 0, WEFT_OPT_ARG, 'm' },
		{ "max-device-mem", 0, WEFT_OPT_ARG, 'M' },
		{ "ptx-dir", 0, WEFT_OPT_ARG, 'P' },
		{ "quiet", 'q', WEFT_OPT_FLAG, 'q' },
		{ "jobs", 'j', WEFT_OPT_ARG, 'j' },
		WEFT_OPT_HELP_VERSION,
		{ 0 },
	};
	struct weft_optp p;
	weft_opt_init(&p, argc, argv, 1);
	for (int id; !prog && (id = weft_opt_next(&p, opts)) != WEFT_OPT_END;) {
		const char *val = p.arg;
		switch (id) {
		case WEFT_OPT_ERROR:
		case WEFT_OPT_ID_HELP:
		case WEFT_OPT_ID_VERSION:
			return weft_cli_common_option(&p, id, exec_usage);
		case 'o':
			tpath = val;
			break;
		case 'l': {
			char *end;
			long v = strtol(val, &end, 10);
			if (!*val || *end || v < 1 || v > 19)
				return weft_cli_usage("bad --level `%s` (a zstd level, 1..19)", val);
			level = val;
			break;
		}
		case 'L':
			if (weft_parse_count(val, &n) || !n)
				return weft_cli_usage("bad --max-launch-insts `%s` (a positive number of thread "
						      "instructions, e.g. 1e9)",
						      val);
			max_launch = val;
			break;
		case 'm':
			if (weft_parse_count(val, &n) || !n)
				return weft_cli_usage("bad --max-thread-insts `%s` (a positive integer)", val);
			max_thread = val;
			break;
		case 'M':
			if (weft_parse_bytes(val, &n))
				return weft_cli_usage("bad --max-device-mem `%s` (a positive size in bytes, or with "
						      "K, M, G or T, e.g. 8G)",
						      val);
			max_mem = val;
			break;
		case 'P':
			ptx_dir = val;
			break;
		case 'j': {
			unsigned j;
			if (weft_cli_jobs(val, &j))
				return 2;
			jobs = val;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case WEFT_OPT_OPERAND:
			prog = &argv[p.i - 1];
			break;
		}
	}
	if (!prog)
		return weft_cli_usage("%s", "which program? give PROGRAM [ARGS...] after the options");
	if (level && !tpath)
		return weft_cli_usage("%s", "--level applies only with -o FILE (a trace)");
	char trace_abs[PATH_MAX], ptx_abs[PATH_MAX], dir[PATH_MAX];
	if (tpath) {
		char why[600];
		if (weft_opt_check_output(tpath, why, sizeof(why)))
			return weft_cli_usage("-o: %s", why);
		if (absolute(tpath, trace_abs, sizeof(trace_abs)))
			return weft_cli_usage("-o: %.400s: the path is too long", tpath);
	}
	if (ptx_dir) {
		if (!weft_opt_is_dir(ptx_dir) || access(ptx_dir, W_OK | X_OK))
			return weft_cli_usage("--ptx-dir %.400s is not a directory this user can write to", ptx_dir);
		if (absolute(ptx_dir, ptx_abs, sizeof(ptx_abs)))
			return weft_cli_usage("--ptx-dir %.400s: the path is too long", ptx_dir);
	}
	int rc = find_cudart(dir);
	if (rc)
		return rc;

	/* the report comes back through a directory of our own */
	const char *tmp = getenv("TMPDIR");
	char rdir[PATH_MAX], rpath[PATH_MAX + 16];
	snprintf(rdir, sizeof(rdir), "%s/weft-exec.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(rdir)) {
		weft_cli_say("cannot make a temporary directory %s: %s", rdir, strerror(errno));
		return 2;
	}
	snprintf(rpath, sizeof(rpath), "%s/report", rdir);

	for (size_t i = 0; i < sizeof(cudart_vars) / sizeof(cudart_vars[0]); i++)
		unsetenv(cudart_vars[i]);
	const char *old = getenv("LD_LIBRARY_PATH");
	char *ldpath = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
	if (!ldpath) {
		rmdir(rdir);
		return weft_cli_nomem("for LD_LIBRARY_PATH");
	}
	sprintf(ldpath, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	rc = set_env("LD_LIBRARY_PATH", ldpath);
	free(ldpath);
	if (!rc)
		rc = set_env("WEFT_CUDART_REPORT", rpath);
	if (!rc && tpath)
		rc = set_env("WEFT_CUDART_TRACE", trace_abs);
	if (!rc && level)
		rc = set_env("WEFT_CUDART_LEVEL", level);
	if (!rc && max_launch)
		rc = set_env("WEFT_CUDART_MAX_LAUNCH_INSTS", max_launch);
	if (!rc && max_thread)
		rc = set_env("WEFT_CUDART_MAX_THREAD_INSTS", max_thread);
	if (!rc && max_mem)
		rc = set_env("WEFT_CUDART_MAX_DEVICE_MEM", max_mem);
	if (!rc && jobs)
		rc = set_env("WEFT_CUDART_JOBS", jobs);
	if (!rc && ptx_dir)
		rc = set_env("WEFT_CUDART_PTX_DIR", ptx_abs);
	int status = 0;
	if (!rc)
		rc = run_program(prog, &status);
	struct report r;
	int have = rc ? -1 : read_report(rpath, &r);
	unlink(rpath);
	rmdir(rdir);
	if (rc)
		return rc;
	if (have > 0)
		return have;
	if (have == 0 && !quiet)
		print_summary(prog[0], status, &r, tpath);
	return outcome(prog[0], status, have == 0, &r, dir);
}
