/*
 * fuzz_trace.c - libFuzzer target: the trace reader (trace/format/) and the
 * models that replay what it decodes (models/).
 *
 * The input is a trace file (.wtr). The harness puts it in a memory file
 * and, as weft-trace and weft-estimate would: opens it (header, footer,
 * index, launch records with their static programs, the info record),
 * decodes every launch's first and last CTAs by random access
 * (weft_trace_read_cta) and walks every thread's dynamic instructions,
 * replays the trace through the SIMT model, the SGMF and dMT fabric
 * models, the vt model (a vector-thread and a MIMD tile) and the FPGA
 * overlay model (1 and 16 batch contexts) on small
 * configurations (weft_model_run_many, as weft-estimate does, and
 * weft_model_run), and checks the whole
 * file as `weft-trace verify` does (weft_trace_verify).
 *
 * Checksums: this target is meant to be linked with the fuzz build of the
 * library (`make fuzz`), compiled with -DWEFT_FUZZ_NO_CRC, where every
 * CRC-32 check passes (trace/format/trace_format.h wt_crc_ok): a mutated
 * byte then reaches the record parsers and the CTA decoder as it would in
 * a hostile file whose checksums were made right, instead of stopping at
 * the first checksum. The seeds include traces whose zstd frames hold raw
 * blocks (tests/fuzz/trace_rawzstd.c), so mutations land in the decoded
 * streams and programs directly.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "models/config.h"
#include "models/model.h"
#include "trace/format/trace.h"

/* Small machines: one SM / one fabric core with small caches; the fabric's
 * replay cache is off, so no run depends on an earlier input. Each model
 * runs as weft-estimate runs it (weft_model_run_many): two configurations
 * from one read of the trace (for SIMT and SGMF the second differs only in
 * keys the replay does not read, so it follows the first; the vt pair is a
 * vector-thread and a MIMD tile, replayed side by side; the overlay pair
 * two batch counts sharing each decoded CTA, the one context reusing its
 * batches' timings), and dMT alone
 * through weft_model_run; SIMT, the vector-thread tile and the overlay
 * also alone (weft_model_run: the single-config path, which prepares CTAs
 * where they are decoded), SIMT also on every 2nd CTA (a sampled
 * launch's finishing times and steady pace, simt.c sampled_cycles), and
 * SGMF alone on a random sample of 2 CTAs with functional warming. */
#define NCONFIGS 9
static const char *const config_text[NCONFIGS] = {
	"[model]\nname = simt\n[core]\nmax_ctas = 2\n[mem]\nl1_bytes = 4096\nl2_bytes = 16384\n",
	"[model]\nname = simt\n[core]\nmax_ctas = 2\nclock_mhz = 700\n[mem]\nl1_bytes = 4096\n"
	"l2_bytes = 16384\n",
	"[model]\nname = sgmf\n[fabric]\nreplay_cache = false\n[mem]\nl1_bytes = 4096\n"
	"l2_bytes = 16384\n",
	"[model]\nname = sgmf\n[fabric]\nreplay_cache = false\ntoken_buffer = 4\n[mem]\n"
	"l1_bytes = 4096\nl2_bytes = 16384\n",
	"[model]\nname = vt\n[tile]\npattern = vt\npvfb = 2stack\ncores = 2\nregs = 64\n[mem]\n"
	"dcache_bytes = 4096\n",
	"[model]\nname = vt\n[tile]\npattern = mimd\ncores = 2\nregs = 64\n[mem]\ndcache_bytes = 4096\n",
	"[model]\nname = overlay\n[overlay]\nbatches = 1\n",
	"[model]\nname = overlay\n[overlay]\nbatches = 16\n",
	"[model]\nname = dmt\n[fabric]\nreplay_cache = false\n[mem]\nl1_bytes = 4096\n"
	"l2_bytes = 16384\n",
};
static struct weft_config configs[NCONFIGS];
static int verbose; /* WEFT_FUZZ_VERBOSE=1: print why each step stopped (triage) */

static void say(const char *step, int rc, const struct weft_error *err)
{
	if (verbose)
		fprintf(stderr, "fuzz_trace: %s: %s\n", step, rc ? err->message : "ok");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	verbose = getenv("WEFT_FUZZ_VERBOSE") != NULL;
	struct weft_error err;
	for (size_t i = 0; i < NCONFIGS; i++)
		if (weft_config_load_text(config_text[i], "fuzz.ini", NULL, 0, &configs[i], &err)) {
			fprintf(stderr, "fuzz_trace: config %zu: %s\n", i, err.message);
			abort();
		}
	return 0;
}

static void walk_cta(const struct weft_program *p, const struct weft_cta_trace *c)
{
	for (uint32_t i = 0; i < c->nthreads; i++) {
		struct weft_thread_iter it;
		struct weft_dyn_inst d;
		weft_thread_iter_init(&it, p, &c->threads[i]);
		while (weft_thread_iter_next(&it, &d))
			if (d.pc >= p->ninsts)
				abort(); /* the decoder's paths stay inside the program */
	}
}

static void read_some(struct weft_trace *t)
{
	const struct weft_trace_info *info = weft_trace_info(t);
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	struct weft_error err;
	for (uint32_t l = 0; l < info->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		if (!L->nctas)
			continue;
		/* last CTA first: random access in either direction */
		uint32_t ctas[2] = { L->nctas - 1, 0 };
		for (int k = 0; k < 2; k++) {
			int rc = weft_trace_read_cta(t, l, ctas[k], &c, &err);
			say("read_cta", rc, &err);
			if (rc == 0)
				walk_cta(L->program, &c);
		}
	}
	weft_cta_trace_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.wtr", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	size_t done = 0;
	while (done < size) {
		ssize_t k = write(fd, data + done, size - done);
		if (k <= 0) {
			close(fd);
			return 0;
		}
		done += (size_t)k;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct weft_trace *t;
	struct weft_error err;
	int rc = weft_trace_open(path, &t, &err);
	say("open", rc, &err);
	if (rc == 0) {
		read_some(t);
		struct weft_cta_sample all = { .kind = WEFT_SAMPLE_ALL };
		for (size_t i = 0; i < NCONFIGS; i += 2) {
			const struct weft_model *m = weft_model_find(configs[i].model);
			const struct weft_config *pair[2] = { &configs[i], &configs[i + 1 < NCONFIGS ? i + 1 : i] };
			struct weft_model_result res[2];
			uint32_t n = i + 1 < NCONFIGS ? 2 : 1, passes;
			if (n == 2)
				rc = weft_model_run_many(m, pair, n, t, &all, res, &passes, &err);
			else
				rc = weft_model_run(m, pair[0], t, &all, &res[0], &err);
			say(configs[i].model, rc, &err);
			if (rc == 0)
				for (uint32_t k = 0; k < n; k++)
					weft_model_result_free(&res[k]);
			/* SIMT, the vector-thread tile and the overlay alone too:
			 * one config prepares each CTA (warp streams, whole
			 * strips, batch streams) where it is decoded, apart from
			 * the pair's path (dMT, a fabric, runs alone) */
			if (n == 2 && (strcmp(configs[i].model, "simt") == 0 ||
				       strcmp(configs[i].model, "vt") == 0 ||
				       strcmp(configs[i].model, "overlay") == 0)) {
				rc = weft_model_run(m, pair[0], t, &all, &res[0], &err);
				say(configs[i].model, rc, &err);
				if (rc == 0)
					weft_model_result_free(&res[0]);
			}
			if (n == 2 && strcmp(configs[i].model, "simt") == 0) {
				struct weft_cta_sample half = { .kind = WEFT_SAMPLE_EVERY, .every = 2 };
				rc = weft_model_run(m, pair[0], t, &half, &res[0], &err);
				say("simt sample", rc, &err);
				if (rc == 0)
					weft_model_result_free(&res[0]);
			}
			/* SGMF alone on a warmed random sample: every CTA
			 * prepared where it is decoded, the unsampled ones
			 * warming the caches (weft_trace_for_each_cta_prep_warm) */
			if (n == 2 && strcmp(configs[i].model, "sgmf") == 0) {
				struct weft_cta_sample warm = { .kind = WEFT_SAMPLE_RANDOM, .count = 2, .seed = 1,
								.warm = 1 };
				rc = weft_model_run(m, pair[0], t, &warm, &res[0], &err);
				say("sgmf warmed sample", rc, &err);
				if (rc == 0)
					weft_model_result_free(&res[0]);
				/* windowed: the fill reads the first sampled CTA's
				 * lines and warms the CTAs before the first window
				 * until the caches turn over (fabric_warm.c) */
				warm.warm_window = 1;
				rc = weft_model_run(m, pair[0], t, &warm, &res[0], &err);
				say("sgmf windowed sample", rc, &err);
				if (rc == 0)
					weft_model_result_free(&res[0]);
			}
		}
		weft_trace_close(t);
	}
	rc = weft_trace_verify(path, &err);
	say("verify", rc, &err);
	close(fd);
	return 0;
}
