/*
 * test_group.c - the shared grouping machinery (models/group.h).
 *
 * Hand-built programs (a tiny assembler below, analysed by
 * weft_program_analyse) with hand-built per-thread paths pin the exact issue
 * sequence (pc, issue mask, exec mask) of every policy on: if/else, nested
 * if/else, a loop with a backward branch and different trip counts, an early
 * exit inside a loop, a `continue` (a second backward branch), guard-false
 * instructions; widths 1, 2, 8, 32, 64 and a last partial group; corrupt
 * paths are refused. The expected sequences were derived by hand from the
 * rules in docs/grouping.md.
 *
 * Against the emulator: every bundled workload at small size runs with an
 * observer that records each warp's instructions and masks and rebuilds the
 * per-thread traces from them (what a trace holds); grouping width 32
 * under WEFT_DIV_IPDOM must give the same warp instructions, masks and
 * addresses in the same order, and every policy and width must execute the
 * same thread instructions; under every policy and width each lane sees
 * exactly its own thread's instruction stream (weft_thread_iter). The same holds reading back a trace file written
 * by weft_trace_writer (counts, a hash of each warp's mask sequence, and the
 * launch records' warp_insts and thread_insts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "models/group.h"
#include "trace/ptx/program.h"
#include "trace/format/trace.h"
#include "trace/launch/workload.h"
#include "trace/launch/workload_run.h"

/* ---- a tiny assembler ----
 * tokens: a (alu), ga (@p alu), m (load), gm (@p load), bN (bra N),
 * cbN (@p bra N), x (exit), cx (@p exit) */
static struct weft_program *mkprog(const char *src)
{
	struct weft_program *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	p->kernel = strdup("k");
	p->insts = calloc(64, sizeof(*p->insts));
	p->nregs = 3;
	p->reg_type = calloc(3, 1);
	p->reg_type[0] = WEFT_T_PRED;
	p->reg_type[1] = WEFT_T_U32;
	p->reg_type[2] = WEFT_T_U64;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", src);
	uint32_t n = 0;
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		struct weft_inst *in = &p->insts[n++];
		in->guard = WEFT_NO_REG;
		for (int j = 0; j < WEFT_PTX_MAX_OPERANDS; j++) {
			in->opnd[j].reg = in->opnd[j].reg2 = WEFT_NO_REG;
			in->opnd[j].sym = -1;
		}
		if (tok[0] == 'g' || tok[0] == 'c') {
			in->guard = 0;
			tok++;
		}
		switch (tok[0]) {
		case 'a':
			in->op = WEFT_OP_ADD;
			in->type = WEFT_T_U32;
			in->nopnd = 3;
			in->opnd[0].kind = WEFT_OPND_REG;
			in->opnd[0].reg = 1;
			in->opnd[1].kind = WEFT_OPND_REG;
			in->opnd[1].reg = 1;
			in->opnd[2].kind = WEFT_OPND_IMM;
			break;
		case 'm':
			in->op = WEFT_OP_LD;
			in->type = WEFT_T_U32;
			in->space = WEFT_SPACE_GLOBAL;
			in->vec = 1;
			in->nopnd = 2;
			in->opnd[0].kind = WEFT_OPND_REG;
			in->opnd[0].reg = 1;
			in->opnd[1].kind = WEFT_OPND_ADDR;
			in->opnd[1].reg = 2;
			break;
		case 'b':
			in->op = WEFT_OP_BRA;
			in->nopnd = 1;
			in->opnd[0].kind = WEFT_OPND_LABEL;
			in->opnd[0].imm = atoi(tok + 1);
			break;
		case 'x':
			in->op = WEFT_OP_EXIT;
			break;
		default:
			fail_msg("bad token %s", tok);
		}
	}
	p->ninsts = n;
	struct weft_error err;
	int rc = weft_program_analyse(p, &err);
	if (rc)
		fail_msg("%s", err.message);
	return p;
}

/* A CTA built by hand: per thread a path, guard bits and (generated)
 * addresses: thread t's k-th address is 0x1000 * (t + 1) + 4 * k. */
struct hcta {
	struct weft_cta_trace cta;
	struct weft_thread_trace th[200];
	uint32_t blocks[200][32];
	uint8_t guards[200][32];
	uint64_t addrs[200][32];
	uint8_t spaces[200][32];
};

/* path: block numbers; guards: "1011" (may be NULL); naddrs: how many. */
static void hthread(struct hcta *h, uint32_t t, const char *path, const char *guards, uint32_t naddrs)
{
	struct weft_thread_trace *th = &h->th[t];
	uint32_t n = 0;
	for (const char *s = path; *s; s++)
		if (*s >= '0' && *s <= '9')
			h->blocks[t][n++] = (uint32_t)(*s - '0');
	th->nblocks = n;
	th->blocks = h->blocks[t];
	n = 0;
	for (const char *s = guards ? guards : ""; *s; s++)
		h->guards[t][n++] = (uint8_t)(*s == '1');
	th->nguards = n;
	th->guards = h->guards[t];
	for (uint32_t k = 0; k < naddrs; k++) {
		h->addrs[t][k] = 0x1000ull * (t + 1) + 4 * k;
		h->spaces[t][k] = WEFT_SPACE_GLOBAL;
	}
	th->naddrs = naddrs;
	th->addrs = h->addrs[t];
	th->spaces = h->spaces[t];
	if (t + 1 > h->cta.nthreads)
		h->cta.nthreads = t + 1;
	h->cta.threads = h->th;
}

static struct hcta *hnew(void)
{
	struct hcta *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	return h;
}

/* The issue sequence of one group as "pc:issue/exec ..." (hex masks);
 * also checks that addresses come out in order for executing lanes. */
static char *seq(const struct weft_program *p, const struct hcta *h, uint32_t width, uint32_t group,
		 enum weft_div_policy pol)
{
	static char out[4096];
	struct weft_group_prog gp;
	struct weft_error err;
	assert_int_equal(weft_group_prog_init(&gp, p, &err), 0);
	struct weft_group_iter it;
	int rc = weft_group_iter_init(&it, &gp, &h->cta, width, group, pol, 0, &err);
	if (rc)
		fail_msg("%s", err.message);
	uint32_t used[64] = { 0 };
	size_t len = 0;
	out[0] = 0;
	struct weft_group_inst in;
	while ((rc = weft_group_next(&it, &in)) == 1) {
		assert_true((in.exec & ~in.issue) == 0);
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%u:%llx/%llx", len ? " " : "", in.pc,
					(unsigned long long)in.issue, (unsigned long long)in.exec);
		if (in.is_mem)
			for (uint64_t m = in.exec; m; m &= m - 1) {
				int l = __builtin_ctzll(m);
				uint32_t t = group * width + (uint32_t)l;
				assert_int_equal(in.addr[l], 0x1000ull * (t + 1) + 4 * used[l]);
				assert_int_equal(in.space[l], WEFT_SPACE_GLOBAL);
				used[l]++;
			}
	}
	if (rc < 0)
		fail_msg("%s", err.message);
	weft_group_prog_free(&gp);
	return out;
}

#define SEQ_EQ(p, h, w, g, pol, expect) assert_string_equal(seq(p, h, w, g, pol), expect)

/* ---- if/else ---- */
/* B0 [0,1] -> B1 | B2;  B1 [2,3] then, bra B3;  B2 [4] else;  B3 [5,6] */
static const char *IFELSE = "a cb4 a b5 a a x";

static struct hcta *ifelse_cta(uint32_t n)
{
	struct hcta *h = hnew();
	for (uint32_t t = 0; t < n; t++)
		hthread(h, t, t % 2 ? "013" : "023", NULL, 0);
	return h;
}

static void test_ifelse(void **state)
{
	(void)state;
	struct weft_program *p = mkprog(IFELSE);
	assert_int_equal(p->nblocks, 4);
	assert_int_equal(p->blocks[0].ipdom, 3);
	struct hcta *h = ifelse_cta(4);
	/* lanes 0 and 2 take the branch (else), 1 and 3 fall through (then) */
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_IPDOM, "0:f/f 1:f/5 4:5/5 2:a/a 3:a/a 5:f/f 6:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_FIFO, "0:f/f 1:f/5 2:a/a 3:a/a 5:a/a 6:a/a 4:5/5 5:5/5 6:5/5");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_1STACK, "0:f/f 1:f/5 2:a/a 3:a/a 4:5/5 5:f/f 6:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_2STACK, "0:f/f 1:f/5 2:a/a 3:a/a 4:5/5 5:f/f 6:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PREDICATE, "0:f/f 1:f/5 2:f/a 3:f/a 4:f/5 5:f/f 6:f/f");
	/* width 1: every lane alone, no divergence */
	for (int pol = 0; pol < WEFT_DIV_PREDICATE; pol++) {
		SEQ_EQ(p, h, 1, 0, pol, "0:1/1 1:1/1 4:1/1 5:1/1 6:1/1");
		SEQ_EQ(p, h, 1, 1, pol, "0:1/1 1:1/0 2:1/1 3:1/1 5:1/1 6:1/1");
	}
	/* ... except that predication issues both sides even for one lane */
	SEQ_EQ(p, h, 1, 0, WEFT_DIV_PREDICATE, "0:1/1 1:1/1 2:1/0 3:1/0 4:1/1 5:1/1 6:1/1");
	SEQ_EQ(p, h, 1, 1, WEFT_DIV_PREDICATE, "0:1/1 1:1/0 2:1/1 3:1/1 4:1/0 5:1/1 6:1/1");
	/* width 2 */
	SEQ_EQ(p, h, 2, 1, WEFT_DIV_IPDOM, "0:3/3 1:3/1 4:1/1 2:2/2 3:2/2 5:3/3 6:3/3");
	/* width 8 over 4 threads: one partial group */
	SEQ_EQ(p, h, 8, 0, WEFT_DIV_IPDOM, "0:f/f 1:f/5 4:5/5 2:a/a 3:a/a 5:f/f 6:f/f");
	/* 5 threads in groups of 4: the last group holds thread 4 alone */
	free(h);
	h = ifelse_cta(5);
	SEQ_EQ(p, h, 4, 1, WEFT_DIV_IPDOM, "0:1/1 1:1/1 4:1/1 5:1/1 6:1/1");
	SEQ_EQ(p, h, 4, 1, WEFT_DIV_PREDICATE, "0:1/1 1:1/1 2:1/0 3:1/0 4:1/1 5:1/1 6:1/1");
	struct weft_group_iter it;
	struct weft_group_prog gp;
	struct weft_error err;
	assert_int_equal(weft_group_prog_init(&gp, p, &err), 0);
	assert_int_equal(weft_group_iter_init(&it, &gp, &h->cta, 4, 2, WEFT_DIV_IPDOM, 0, &err), WEFT_ERR_INPUT);
	assert_int_equal(weft_group_iter_init(&it, &gp, &h->cta, 65, 0, WEFT_DIV_IPDOM, 0, &err), WEFT_ERR_INPUT);
	assert_int_equal(weft_group_iter_init(&it, &gp, &h->cta, 0, 0, WEFT_DIV_IPDOM, 0, &err), WEFT_ERR_INPUT);
	weft_group_prog_free(&gp);
	free(h);
	weft_program_free(p);
}

/* 64 and 70 threads alternating then/else: width 64, 32 and a partial group */
static void test_ifelse_wide(void **state)
{
	(void)state;
	struct weft_program *p = mkprog(IFELSE);
	struct hcta *h = ifelse_cta(70);
	SEQ_EQ(p, h, 64, 0, WEFT_DIV_IPDOM,
	       "0:ffffffffffffffff/ffffffffffffffff 1:ffffffffffffffff/5555555555555555 "
	       "4:5555555555555555/5555555555555555 2:aaaaaaaaaaaaaaaa/aaaaaaaaaaaaaaaa "
	       "3:aaaaaaaaaaaaaaaa/aaaaaaaaaaaaaaaa 5:ffffffffffffffff/ffffffffffffffff "
	       "6:ffffffffffffffff/ffffffffffffffff");
	SEQ_EQ(p, h, 64, 1, WEFT_DIV_IPDOM, "0:3f/3f 1:3f/15 4:15/15 2:2a/2a 3:2a/2a 5:3f/3f 6:3f/3f");
	SEQ_EQ(p, h, 32, 1, WEFT_DIV_PVFB_1STACK,
	       "0:ffffffff/ffffffff 1:ffffffff/55555555 2:aaaaaaaa/aaaaaaaa 3:aaaaaaaa/aaaaaaaa "
	       "4:55555555/55555555 5:ffffffff/ffffffff 6:ffffffff/ffffffff");
	SEQ_EQ(p, h, 32, 2, WEFT_DIV_PREDICATE, "0:3f/3f 1:3f/15 2:3f/2a 3:3f/2a 4:3f/15 5:3f/3f 6:3f/3f");
	free(h);
	weft_program_free(p);
}

/* ---- nested if/else ----
 * B0 [0] -> B1 | B5;  B1 [1,2] -> B2 | B3;  B2 [3,4] bra B4;  B3 [5];
 * B4 [6] bra B6;  B5 [7];  B6 [8] exit */
static void test_nested(void **state)
{
	(void)state;
	struct weft_program *p = mkprog("cb7 a cb5 a b6 a b8 a x");
	assert_int_equal(p->nblocks, 7);
	assert_int_equal(p->blocks[0].ipdom, 6);
	assert_int_equal(p->blocks[1].ipdom, 4);
	struct hcta *h = hnew();
	hthread(h, 0, "01246", NULL, 0);
	hthread(h, 1, "01346", NULL, 0);
	hthread(h, 2, "056", NULL, 0);
	hthread(h, 3, "01246", NULL, 0);
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_IPDOM, "0:f/4 7:4/4 1:b/b 2:b/2 5:2/2 3:9/9 4:9/9 6:b/b 8:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_FIFO,
	       "0:f/4 1:b/b 2:b/2 3:9/9 4:9/9 6:9/9 8:9/9 7:4/4 8:4/4 5:2/2 6:2/2 8:2/2");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_1STACK, "0:f/4 1:b/b 2:b/2 3:9/9 4:9/9 5:2/2 6:b/b 7:4/4 8:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_2STACK, "0:f/4 1:b/b 2:b/2 3:9/9 4:9/9 5:2/2 6:b/b 7:4/4 8:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PREDICATE, "0:f/4 1:f/b 2:f/2 3:f/9 4:f/9 5:f/2 6:f/b 7:f/4 8:f/f");
	free(h);
	weft_program_free(p);
}

/* ---- loop with a backward branch, trip counts 1, 3, 2, 3 and guards ----
 * B0 [0 a, 1 @p a] -> B1;  B1 [2 ld, 3 @p ld, 4 @p bra B1] -> B2 | B1;
 * B2 [5, 6 exit] */
static void test_loop(void **state)
{
	(void)state;
	struct weft_program *p = mkprog("a ga m gm cb2 a x");
	assert_int_equal(p->nblocks, 3);
	assert_int_equal(p->blocks[1].ipdom, 2);
	struct hcta *h = hnew();
	/* guards: pc1 once, then pc3 once per iteration; addresses: pc2 per
	 * iteration plus pc3 when its guard is true */
	hthread(h, 0, "012", "1" "1", 2);
	hthread(h, 1, "01112", "0" "011", 5);
	hthread(h, 2, "0112", "1" "10", 3);
	hthread(h, 3, "01112", "1" "110", 5);
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_IPDOM,
	       "0:f/f 1:f/d 2:f/f 3:f/d 4:f/e 2:e/e 3:e/a 4:e/a 2:a/a 3:a/2 4:a/0 5:f/f 6:f/f");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_FIFO,
	       "0:f/f 1:f/d 2:f/f 3:f/d 4:f/e 5:1/1 6:1/1 2:e/e 3:e/a 4:e/a 5:4/4 6:4/4 "
	       "2:a/a 3:a/2 4:a/0 5:a/a 6:a/a");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_1STACK,
	       "0:f/f 1:f/d 2:f/f 3:f/d 4:f/e 2:e/e 3:e/a 4:e/a 2:a/a 3:a/2 4:a/0 5:f/f 6:f/f");
	/* 2-stack: the looping fragment waits on the next-iteration stack
	 * while the fragment that left the loop runs to its end */
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_2STACK,
	       "0:f/f 1:f/d 2:f/f 3:f/d 4:f/e 5:1/1 6:1/1 2:e/e 3:e/a 4:e/a 5:4/4 6:4/4 "
	       "2:a/a 3:a/2 4:a/0 5:a/a 6:a/a");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PREDICATE,
	       "0:f/f 1:f/d 2:f/f 3:f/d 4:f/e 2:f/e 3:f/a 4:f/a 2:f/a 3:f/2 4:f/0 5:f/f 6:f/f");
	/* block-level interface: blocks and masks, skipping instructions */
	struct weft_group_prog gp;
	struct weft_error err;
	assert_int_equal(weft_group_prog_init(&gp, p, &err), 0);
	struct weft_group_iter it;
	assert_int_equal(weft_group_iter_init(&it, &gp, &h->cta, 4, 0, WEFT_DIV_IPDOM, 0, &err), 0);
	struct weft_group_block b;
	const uint32_t eb[] = { 0, 1, 1, 1, 2 };
	const uint64_t em[] = { 0xf, 0xf, 0xe, 0xa, 0xf };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(weft_group_next_block(&it, &b), 1);
		assert_int_equal(b.block, eb[i]);
		assert_int_equal(b.issue, em[i]);
		assert_int_equal(b.on, em[i]);
		assert_int_equal(b.first_pc, p->blocks[eb[i]].first);
		assert_int_equal(b.count, p->blocks[eb[i]].count);
		if (i == 2) { /* read one instruction, skip the rest */
			struct weft_group_inst in;
			assert_int_equal(weft_group_block_inst(&it, &in), 1);
			assert_int_equal(in.pc, 2);
			assert_int_equal(in.exec, 0xe);
		}
	}
	assert_int_equal(weft_group_next_block(&it, &b), 0);
	assert_int_equal(weft_group_next_block(&it, &b), 0);
	/* stats: thread instructions are the same under every policy */
	uint64_t ti = 0;
	for (int pol = 0; pol < WEFT_DIV_COUNT; pol++) {
		struct weft_group_stats s;
		weft_group_stats_init(&s, 4, pol);
		assert_int_equal(weft_group_stats_add_cta(&s, &gp, &h->cta, &err), 0);
		assert_int_equal(s.groups, 1);
		if (pol == 0)
			ti = s.thread_insts;
		assert_int_equal(s.thread_insts, ti);
		uint64_t n = 0, sum = 0;
		for (int k = 0; k <= 64; k++) {
			n += s.hist_exec[k];
			sum += (uint64_t)k * s.hist_exec[k];
		}
		assert_int_equal(n, s.group_insts);
		assert_int_equal(sum, s.thread_insts);
	}
	/* IPDOM: 13 group instructions; exec lanes 4+3+4+3+3+3+2+2+2+1+0+4+4 */
	struct weft_group_stats s;
	weft_group_stats_init(&s, 4, WEFT_DIV_IPDOM);
	assert_int_equal(weft_group_stats_add_cta(&s, &gp, &h->cta, &err), 0);
	assert_int_equal(s.group_insts, 13);
	assert_int_equal(s.thread_insts, 35);
	assert_int_equal(s.issue_lanes, 4 * 7 + 3 * 3 + 2 * 3);
	assert_int_equal(s.hist_exec[0], 1);
	assert_int_equal(s.hist_issue[4], 7);
	assert_true(weft_group_stats_efficiency(&s) > 0.67 && weft_group_stats_efficiency(&s) < 0.68);
	assert_int_equal(s.blocks, 5);
	/* entries below the top while issuing B0 B1 B1(e) B1(a) B2: 0 0 2 3 0
	 * (B1(a) sits on (B2,rpc B2,lane 2) left by the reused top, on
	 * (B2,rpc B2,lane 0) and on the reconvergence entry (B2, all)) */
	assert_int_equal(s.pending_sum, 5);
	assert_int_equal(s.pending_max, 3);
	uint64_t bk[4];
	weft_group_stats_buckets(&s, bk); /* issue lanes: 4 x7, 3 x3, 2 x3 */
	assert_int_equal(bk[0], 0);
	assert_int_equal(bk[1], 3);
	assert_int_equal(bk[2], 3);
	assert_int_equal(bk[3], 7);
	weft_group_prog_free(&gp);
	free(h);
	weft_program_free(p);
}

/* ---- early exit inside a loop ----
 * B0 [0] -> B1;  B1 [1 ld, 2 @p exit] -> B2 | exit;
 * B2 [3, 4 @p bra B1] -> B3 | B1;  B3 [5 exit] */
static void test_early_exit(void **state)
{
	(void)state;
	struct weft_program *p = mkprog("a m cx a cb1 x");
	assert_int_equal(p->nblocks, 4);
	assert_int_equal(p->blocks[1].ipdom, WEFT_NO_BLOCK);
	assert_int_equal(p->blocks[2].ipdom, WEFT_NO_BLOCK);
	struct hcta *h = hnew();
	hthread(h, 0, "01", NULL, 1);         /* exits in the first iteration */
	hthread(h, 1, "012123", NULL, 2);     /* two iterations, leaves the loop */
	hthread(h, 2, "0121", NULL, 2);       /* exits in the second iteration */
	hthread(h, 3, "0123", NULL, 1);       /* one iteration */
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_IPDOM, "0:f/f 1:f/f 2:f/1 3:e/e 4:e/6 1:6/6 2:6/4 3:2/2 4:2/0 5:2/2 5:8/8");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_FIFO, "0:f/f 1:f/f 2:f/1 3:e/e 4:e/6 5:8/8 1:6/6 2:6/4 3:2/2 4:2/0 5:2/2");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_1STACK, "0:f/f 1:f/f 2:f/1 3:e/e 4:e/6 1:6/6 2:6/4 3:2/2 4:2/0 5:a/a");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PVFB_2STACK, "0:f/f 1:f/f 2:f/1 3:e/e 4:e/6 5:8/8 1:6/6 2:6/4 3:2/2 4:2/0 5:2/2");
	SEQ_EQ(p, h, 4, 0, WEFT_DIV_PREDICATE, "0:f/f 1:f/f 2:f/1 3:e/e 4:e/6 1:e/6 2:e/4 3:a/2 4:a/0 5:a/a");
	free(h);
	weft_program_free(p);
}

/* ---- a `continue`: two backward branches to the loop head ----
 * B0 [0] -> B1;  B1 [1, 2 @p bra B1] -> B2 | B1;  B2 [3, 4 @p bra B1] -> B3 | B1;
 * B3 [5 exit] */
static void test_continue(void **state)
{
	(void)state;
	struct weft_program *p = mkprog("a a cb1 a cb1 x");
	assert_int_equal(p->nblocks, 4);
	assert_int_equal(p->blocks[1].ipdom, 2);
	struct hcta *h = hnew();
	hthread(h, 0, "01123", NULL, 0);  /* continue, then leave */
	hthread(h, 1, "012123", NULL, 0); /* back through the latch, then leave */
	SEQ_EQ(p, h, 2, 0, WEFT_DIV_IPDOM, "0:3/3 1:3/3 2:3/1 1:1/1 2:1/0 3:3/3 4:3/2 1:2/2 2:2/0 3:2/2 4:2/0 5:3/3");
	SEQ_EQ(p, h, 2, 0, WEFT_DIV_PVFB_1STACK, "0:3/3 1:3/3 2:3/1 1:1/1 2:1/0 3:3/3 4:3/2 1:2/2 2:2/0 3:2/2 4:2/0 5:3/3");
	/* 2-stack: lane 1, back at the head after its first iteration, waits
	 * for lane 0's `continue`; the lanes then run iteration 2 together
	 * (10 group instructions instead of 12) */
	SEQ_EQ(p, h, 2, 0, WEFT_DIV_PVFB_2STACK, "0:3/3 1:3/3 2:3/1 3:2/2 4:2/2 1:3/3 2:3/0 3:3/3 4:3/0 5:3/3");
	SEQ_EQ(p, h, 2, 0, WEFT_DIV_PVFB_FIFO,
	       "0:3/3 1:3/3 2:3/1 3:2/2 4:2/2 1:2/2 2:2/0 3:2/2 4:2/0 5:2/2 1:1/1 2:1/0 3:1/1 4:1/0 5:1/1");
	SEQ_EQ(p, h, 2, 0, WEFT_DIV_PREDICATE, "0:3/3 1:3/3 2:3/1 1:3/1 2:3/0 3:3/3 4:3/2 1:3/2 2:3/0 3:3/2 4:3/0 5:3/3");
	free(h);
	weft_program_free(p);
}

/* ---- inconsistent traces are refused ---- */
static void test_bad_trace(void **state)
{
	(void)state;
	struct weft_program *p = mkprog(IFELSE);
	struct weft_group_prog gp;
	struct weft_error err;
	assert_int_equal(weft_group_prog_init(&gp, p, &err), 0);
	const char *bad[] = { "03", "0123", "1", "012", NULL };
	for (int i = 0; bad[i]; i++) {
		struct hcta *h = hnew();
		hthread(h, 0, "023", NULL, 0);
		hthread(h, 1, bad[i], NULL, 0);
		for (int pol = 0; pol < WEFT_DIV_COUNT; pol++) {
			struct weft_group_iter it;
			struct weft_group_inst in;
			int rc = weft_group_iter_init(&it, &gp, &h->cta, 2, 0, pol, 0, &err);
			if (!rc)
				while ((rc = weft_group_next(&it, &in)) == 1)
					;
			assert_int_equal(rc, WEFT_ERR_INPUT);
			assert_non_null(strstr(err.message, "thread 1"));
		}
		free(h);
	}
	/* a guard bit missing, an address too many */
	struct weft_program *q = mkprog("a ga m gm cb2 a x");
	struct weft_group_prog gq;
	assert_int_equal(weft_group_prog_init(&gq, q, &err), 0);
	for (int i = 0; i < 2; i++) {
		struct hcta *h = hnew();
		hthread(h, 0, "012", i ? "11" : "1", i ? 3 : 2);
		struct weft_group_iter it;
		struct weft_group_inst in;
		int rc = weft_group_iter_init(&it, &gq, &h->cta, 1, 0, WEFT_DIV_IPDOM, 0, &err);
		if (!rc)
			while ((rc = weft_group_next(&it, &in)) == 1)
				;
		assert_int_equal(rc, WEFT_ERR_INPUT);
		free(h);
	}
	weft_group_prog_free(&gq);
	weft_program_free(q);
	weft_group_prog_free(&gp);
	weft_program_free(p);
}

static void test_policy_names(void **state)
{
	(void)state;
	enum weft_div_policy pol;
	for (int i = 0; i < WEFT_DIV_COUNT; i++) {
		assert_int_equal(weft_div_policy_parse(weft_div_policy_name(i), &pol), 0);
		assert_int_equal(pol, i);
	}
	assert_int_equal(weft_div_policy_parse("pvfb-2stack", &pol), 0);
	assert_int_equal(pol, WEFT_DIV_PVFB_2STACK);
	assert_int_equal(weft_div_policy_parse("3stack", &pol), -1);
	assert_int_equal(weft_div_policy_parse(NULL, &pol), -1);
}

/* ---- against the emulator ---- */

struct vec {
	void *d;
	size_t n, cap, elt;
};
static void vpush(struct vec *v, const void *x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 16;
		v->d = realloc(v->d, v->cap * v->elt);
		assert_non_null(v->d);
	}
	memcpy((char *)v->d + v->n * v->elt, x, v->elt);
	v->n++;
}

struct wev {
	uint32_t pc, issue, exec;
};

struct rec {
	struct weft_program *prog;
	struct weft_group_prog gp;
	uint32_t nthreads, nwarps;
	struct vec *blocks, *guards, *addrs, *spaces; /* per thread */
	struct vec *evs, *evaddr;                      /* per warp */
	uint64_t warp_insts, thread_insts, cta_thread_insts, launches, ctas;
	char fail[1024];
};

/* WEFT_GROUP_BENCH=1: replay speed per policy at width 32 (thread
 * instructions per second), over the CTAs the test rebuilds. */
static double bench_ns[2][WEFT_DIV_COUNT];
static uint64_t bench_ti[2][WEFT_DIV_COUNT];

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void bench_cta(struct rec *r, const struct weft_cta_trace *c)
{
	for (int pol = 0; pol < WEFT_DIV_COUNT; pol++) {
		/* every instruction with masks and addresses */
		double t0 = now_ns();
		uint64_t ti = 0;
		for (uint32_t g = 0; g < weft_group_count(c->nthreads, 32); g++) {
			struct weft_group_iter it;
			struct weft_group_inst in;
			assert_int_equal(weft_group_iter_init(&it, &r->gp, c, 32, g, pol, 0, NULL), 0);
			while (weft_group_next(&it, &in) == 1)
				ti += (uint64_t)__builtin_popcountll(in.exec);
		}
		bench_ns[0][pol] += now_ns() - t0;
		bench_ti[0][pol] += ti;
		/* statistics (block level where it can) */
		t0 = now_ns();
		struct weft_group_stats s;
		weft_group_stats_init(&s, 32, pol);
		assert_int_equal(weft_group_stats_add_cta(&s, &r->gp, c, NULL), 0);
		bench_ns[1][pol] += now_ns() - t0;
		bench_ti[1][pol] += s.thread_insts;
	}
}

static void rec_free_launch(struct rec *r)
{
	for (uint32_t t = 0; t < r->nthreads; t++) {
		free(r->blocks[t].d);
		free(r->guards[t].d);
		free(r->addrs[t].d);
		free(r->spaces[t].d);
	}
	for (uint32_t w = 0; w < r->nwarps; w++) {
		free(r->evs[w].d);
		free(r->evaddr[w].d);
	}
	free(r->blocks);
	free(r->guards);
	free(r->addrs);
	free(r->spaces);
	free(r->evs);
	free(r->evaddr);
	r->blocks = r->guards = r->addrs = r->spaces = r->evs = r->evaddr = NULL;
	weft_group_prog_free(&r->gp);
	weft_program_free(r->prog);
	r->prog = NULL;
	r->nthreads = r->nwarps = 0;
}

static int rec_launch_begin(void *user, const struct weft_module *mod, uint32_t kernel, struct weft_dim3 grid,
			    struct weft_dim3 block, uint32_t dyn_shared, struct weft_error *err)
{
	(void)grid;
	(void)dyn_shared;
	struct rec *r = user;
	int rc = weft_module_program((struct weft_module *)mod, kernel, &r->prog, err);
	if (rc)
		return rc;
	if ((rc = weft_group_prog_init(&r->gp, r->prog, err)))
		return rc;
	r->nthreads = block.x * block.y * block.z;
	r->nwarps = (r->nthreads + 31) / 32;
	r->blocks = calloc(r->nthreads, sizeof(struct vec));
	r->guards = calloc(r->nthreads, sizeof(struct vec));
	r->addrs = calloc(r->nthreads, sizeof(struct vec));
	r->spaces = calloc(r->nthreads, sizeof(struct vec));
	r->evs = calloc(r->nwarps, sizeof(struct vec));
	r->evaddr = calloc(r->nwarps, sizeof(struct vec));
	for (uint32_t t = 0; t < r->nthreads; t++) {
		r->blocks[t].elt = 4;
		r->guards[t].elt = 1;
		r->addrs[t].elt = 8;
		r->spaces[t].elt = 1;
	}
	for (uint32_t w = 0; w < r->nwarps; w++) {
		r->evs[w].elt = sizeof(struct wev);
		r->evaddr[w].elt = 8;
	}
	r->launches++;
	return 0;
}

static int rec_launch_end(void *user, struct weft_error *err)
{
	(void)err;
	rec_free_launch(user);
	return 0;
}

static int rec_cta_begin(void *user, uint32_t cta, struct weft_error *err)
{
	(void)cta;
	(void)err;
	struct rec *r = user;
	for (uint32_t t = 0; t < r->nthreads; t++)
		r->blocks[t].n = r->guards[t].n = r->addrs[t].n = r->spaces[t].n = 0;
	for (uint32_t w = 0; w < r->nwarps; w++)
		r->evs[w].n = r->evaddr[w].n = 0;
	r->cta_thread_insts = 0;
	return 0;
}

/* What a trace writer does: per lane, the block path, guard bits and
 * addresses; and the warp's events for the comparison. */
static int rec_warp_inst(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	(void)err;
	struct rec *r = user;
	const struct weft_program *p = r->prog;
	uint32_t mask = ev->active | ev->guard_false;
	uint32_t b = p->block_of[ev->pc];
	int first = p->blocks[b].first == ev->pc;
	uint8_t f = p->info[ev->pc].flags;
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint32_t t = ev->warp * 32 + (uint32_t)l;
		if (first)
			vpush(&r->blocks[t], &b);
		if (f & WEFT_II_GUARD) {
			uint8_t g = (ev->active >> l) & 1;
			vpush(&r->guards[t], &g);
		}
		if ((f & WEFT_II_ADDR) && ((ev->active >> l) & 1)) {
			vpush(&r->addrs[t], &ev->addr[l]);
			vpush(&r->spaces[t], &ev->space);
			vpush(&r->evaddr[ev->warp], &ev->addr[l]);
		}
	}
	struct wev e = { ev->pc, mask, ev->active };
	vpush(&r->evs[ev->warp], &e);
	r->warp_insts++;
	r->thread_insts += (uint32_t)__builtin_popcount(ev->active);
	r->cta_thread_insts += (uint32_t)__builtin_popcount(ev->active);
	return 0;
}

static int project(struct rec *r, const struct weft_cta_trace *c, uint32_t width, int pol,
		   struct weft_error *err)
{
	static struct weft_thread_iter ti[64];
	for (uint32_t g = 0; g < weft_group_count(c->nthreads, width); g++) {
		struct weft_group_iter it;
		struct weft_group_inst in;
		int rc = weft_group_iter_init(&it, &r->gp, c, width, g, pol, 0, err);
		if (rc)
			return rc;
		for (uint32_t l = 0; l < it.nlanes; l++)
			weft_thread_iter_init(&ti[l], r->prog, &c->threads[g * width + l]);
		while ((rc = weft_group_next(&it, &in)) == 1) {
			uint64_t lanes = pol == WEFT_DIV_PREDICATE ? in.exec : in.issue;
			for (uint64_t m = lanes; m; m &= m - 1) {
				int l = __builtin_ctzll(m);
				struct weft_dyn_inst d;
				int ok = weft_thread_iter_next(&ti[l], &d);
				while (ok && pol == WEFT_DIV_PREDICATE && !d.exec)
					ok = weft_thread_iter_next(&ti[l], &d);
				if (!ok || d.pc != in.pc || d.exec != ((in.exec >> l) & 1) ||
				    (d.has_addr && (!in.is_mem || d.addr != in.addr[l] || d.space != in.space[l]))) {
					snprintf(r->fail, sizeof(r->fail),
						 "kernel %s CTA %u width %u %s group %u lane %d: grouping pc %u exec %d, "
						 "thread stream %s pc %u exec %d",
						 r->prog->kernel, c->cta, width, weft_div_policy_name(pol), g, l, in.pc,
						 (int)((in.exec >> l) & 1), ok ? "has" : "ended before", ok ? d.pc : 0,
						 ok ? d.exec : 0);
					return 0;
				}
			}
		}
		if (rc < 0)
			return rc;
		for (uint32_t l = 0; l < it.nlanes; l++) {
			struct weft_dyn_inst d;
			int ok = weft_thread_iter_next(&ti[l], &d);
			while (ok && pol == WEFT_DIV_PREDICATE && !d.exec)
				ok = weft_thread_iter_next(&ti[l], &d);
			if (ok) {
				snprintf(r->fail, sizeof(r->fail),
					 "kernel %s CTA %u width %u %s group %u lane %u: thread stream goes on at pc %u",
					 r->prog->kernel, c->cta, width, weft_div_policy_name(pol), g, l, d.pc);
				return 0;
			}
		}
	}
	return 0;
}

static int rec_cta_end(void *user, uint32_t cta, struct weft_error *err)
{
	struct rec *r = user;
	struct weft_thread_trace *th = calloc(r->nthreads, sizeof(*th));
	for (uint32_t t = 0; t < r->nthreads; t++) {
		th[t].nblocks = (uint32_t)r->blocks[t].n;
		th[t].blocks = r->blocks[t].d;
		th[t].nguards = (uint32_t)r->guards[t].n;
		th[t].guards = r->guards[t].d;
		th[t].naddrs = (uint32_t)r->addrs[t].n;
		th[t].addrs = r->addrs[t].d;
		th[t].spaces = r->spaces[t].d;
	}
	struct weft_cta_trace c = { 0, cta, r->nthreads, th, NULL };
	int rc = 0;
	r->ctas++;
	/* width 32, IPDOM: the emulator's warps, instruction by instruction */
	for (uint32_t w = 0; w < r->nwarps && !rc && !r->fail[0]; w++) {
		struct weft_group_iter it;
		if ((rc = weft_group_iter_init(&it, &r->gp, &c, 32, w, WEFT_DIV_IPDOM, 0, err)))
			break;
		const struct wev *ev = r->evs[w].d;
		const uint64_t *ea = r->evaddr[w].d;
		size_t i = 0, ai = 0;
		struct weft_group_inst in;
		while ((rc = weft_group_next(&it, &in)) == 1) {
			if (i >= r->evs[w].n || ev[i].pc != in.pc || ev[i].issue != in.issue ||
			    ev[i].exec != in.exec) {
				snprintf(r->fail, sizeof(r->fail),
					 "kernel %s CTA %u warp %u inst %zu: emulator pc %u mask %x active %x, "
					 "grouping pc %u issue %llx exec %llx",
					 r->prog->kernel, cta, w, i, i < r->evs[w].n ? ev[i].pc : 0,
					 i < r->evs[w].n ? ev[i].issue : 0, i < r->evs[w].n ? ev[i].exec : 0, in.pc,
					 (unsigned long long)in.issue, (unsigned long long)in.exec);
				break;
			}
			if (in.is_mem)
				for (uint64_t m = in.exec; m; m &= m - 1) {
					int l = __builtin_ctzll(m);
					if (ai >= r->evaddr[w].n || ea[ai] != in.addr[l]) {
						snprintf(r->fail, sizeof(r->fail), "kernel %s CTA %u warp %u pc %u: address differs",
							 r->prog->kernel, cta, w, in.pc);
						break;
					}
					ai++;
				}
			i++;
		}
		if (rc > 0)
			rc = 0;
		if (!rc && !r->fail[0] && i != r->evs[w].n)
			snprintf(r->fail, sizeof(r->fail), "kernel %s CTA %u warp %u: emulator %zu warp insts, grouping %zu",
				 r->prog->kernel, cta, w, r->evs[w].n, i);
	}
	if (getenv("WEFT_GROUP_BENCH"))
		bench_cta(r, &c);
	/* every policy and width: each lane sees exactly its own thread's
	 * instruction stream (trace.h weft_thread_iter), in order: under the
	 * stack and fragment policies the instructions issued for the lane,
	 * under predication the instructions it executes */
	static const uint32_t pwidths[] = { 8, 32, 64 };
	for (int pol = 0; pol < WEFT_DIV_COUNT && !rc && !r->fail[0]; pol++)
		for (int wi = 0; wi < 3 && !rc && !r->fail[0]; wi++)
			rc = project(r, &c, pwidths[wi], pol, err);
	/* the block-level statistics equal a count over every instruction */
	for (int pol = 0; pol < WEFT_DIV_COUNT && !rc && !r->fail[0]; pol++) {
		struct weft_group_stats s, ref;
		weft_group_stats_init(&s, 32, pol);
		weft_group_stats_init(&ref, 32, pol);
		if ((rc = weft_group_stats_add_cta(&s, &r->gp, &c, err)))
			break;
		for (uint32_t g = 0; g < r->nwarps && !rc; g++) {
			struct weft_group_iter it;
			struct weft_group_inst in;
			if ((rc = weft_group_iter_init(&it, &r->gp, &c, 32, g, pol, 0, err)))
				break;
			ref.groups++;
			while ((rc = weft_group_next(&it, &in)) == 1) {
				unsigned ne = (unsigned)__builtin_popcountll(in.exec);
				unsigned ni = (unsigned)__builtin_popcountll(in.issue);
				ref.group_insts++;
				ref.thread_insts += ne;
				ref.issue_lanes += ni;
				ref.hist_exec[ne]++;
				ref.hist_issue[ni]++;
			}
			if (rc > 0)
				rc = 0;
		}
		ref.blocks = s.blocks;
		ref.pending_sum = s.pending_sum;
		ref.pending_max = s.pending_max;
		if (!rc && memcmp(&s, &ref, sizeof(s)))
			snprintf(r->fail, sizeof(r->fail), "kernel %s CTA %u: %s statistics differ from a count per instruction",
				 r->prog->kernel, cta, weft_div_policy_name(pol));
	}
	/* every policy and width executes the same thread instructions */
	static const uint32_t widths[] = { 1, 8, 32, 64 };
	for (int pol = 0; pol < WEFT_DIV_COUNT && !rc && !r->fail[0]; pol++)
		for (int wi = 0; wi < 4 && !rc && !r->fail[0]; wi++) {
			if (pol != WEFT_DIV_IPDOM && widths[wi] == 1)
				continue;
			struct weft_group_stats s;
			weft_group_stats_init(&s, widths[wi], pol);
			if ((rc = weft_group_stats_add_cta(&s, &r->gp, &c, err)))
				break;
			if (s.thread_insts != r->cta_thread_insts)
				snprintf(r->fail, sizeof(r->fail),
					 "kernel %s CTA %u: width %u %s executes %llu thread insts, emulator %llu",
					 r->prog->kernel, cta, widths[wi], weft_div_policy_name(pol),
					 (unsigned long long)s.thread_insts, (unsigned long long)r->cta_thread_insts);
		}
	free(th);
	return rc;
}

/* ---- random programs ----
 * Random instruction sequences (any branch targets: loops, irreducible
 * regions, early exits) and random paths through them; every policy and
 * width must finish without error, give each lane exactly its own thread's
 * stream, and execute the same thread instructions. */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)((rng_state >> 33) % n);
}

#define FZ_THREADS 100
#define FZ_PATH 96
#define FZ_DATA 512

struct fz {
	struct weft_cta_trace cta;
	struct weft_thread_trace th[FZ_THREADS];
	uint32_t blocks[FZ_THREADS][FZ_PATH];
	uint8_t guards[FZ_THREADS][FZ_DATA];
	uint64_t addrs[FZ_THREADS][FZ_DATA];
	uint8_t spaces[FZ_THREADS][FZ_DATA];
};

/* A random walk from block 0 to an exit; 0 when it ran too long. */
static int fz_walk(const struct weft_program *p, struct fz *z, uint32_t t)
{
	uint32_t nb = 0, ng = 0, na = 0, b = 0;
	for (;;) {
		if (nb == FZ_PATH)
			return 0;
		z->blocks[t][nb++] = b;
		const struct weft_block *B = &p->blocks[b];
		for (uint32_t pc = B->first; pc < B->first + B->count; pc++) {
			uint8_t f = p->info[pc].flags;
			int exec = 1;
			if (f & WEFT_II_GUARD) {
				exec = (int)rnd(2);
				z->guards[t][ng++] = (uint8_t)exec;
			}
			if ((f & WEFT_II_ADDR) && exec) {
				z->addrs[t][na] = 0x100000ull * t + 8 * na;
				z->spaces[t][na] = (uint8_t)(1 + rnd(3));
				na++;
			}
		}
		const struct weft_inst *last = &p->insts[B->first + B->count - 1];
		int ends = last->op == WEFT_OP_EXIT && (last->guard == WEFT_NO_REG || !B->nsucc || rnd(3) == 0);
		if (ends || !B->nsucc)
			break;
		b = B->succ[rnd(B->nsucc)];
	}
	struct weft_thread_trace *th = &z->th[t];
	th->nblocks = nb;
	th->blocks = z->blocks[t];
	th->nguards = ng;
	th->guards = z->guards[t];
	th->naddrs = na;
	th->addrs = z->addrs[t];
	th->spaces = z->spaces[t];
	return 1;
}

static void test_random_programs(void **state)
{
	(void)state;
	struct fz *z = calloc(1, sizeof(*z));
	assert_non_null(z);
	int programs = 0;
	for (int iter = 0; iter < 400; iter++) {
		/* 4..24 instructions; the last is exit */
		uint32_t n = 4 + rnd(21);
		char src[512];
		size_t len = 0;
		for (uint32_t i = 0; i + 1 < n; i++) {
			static const char *const kinds[] = { "a", "ga", "m", "gm", "b", "cb", "cb", "cx" };
			const char *k = kinds[rnd(8)];
			if (k[strlen(k) - 1] == 'b')
				len += (size_t)snprintf(src + len, sizeof(src) - len, "%s%u ", k, rnd(n));
			else
				len += (size_t)snprintf(src + len, sizeof(src) - len, "%s ", k);
		}
		snprintf(src + len, sizeof(src) - len, "x");
		struct weft_program *p = mkprog(src);
		uint32_t nthreads = 1 + rnd(FZ_THREADS);
		memset(&z->cta, 0, sizeof(z->cta));
		z->cta.cta = (uint32_t)iter;
		z->cta.threads = z->th;
		z->cta.nthreads = nthreads;
		int ok = 1;
		uint64_t executed = 0;
		for (uint32_t t = 0; t < nthreads && ok; t++) {
			int tries = 0;
			while (!fz_walk(p, z, t) && ++tries < 20)
				;
			ok = tries < 20;
			struct weft_thread_iter ti;
			struct weft_dyn_inst d;
			weft_thread_iter_init(&ti, p, &z->th[t]);
			while (ok && weft_thread_iter_next(&ti, &d))
				executed += d.exec;
		}
		if (!ok) { /* no exit within reach (e.g. an endless loop) */
			weft_program_free(p);
			continue;
		}
		programs++;
		struct weft_group_prog gp;
		struct weft_error err;
		assert_int_equal(weft_group_prog_init(&gp, p, &err), 0);
		struct rec r;
		memset(&r, 0, sizeof(r));
		r.prog = p;
		r.gp = gp;
		static const uint32_t widths[] = { 1, 3, 8, 32, 64 };
		for (int pol = 0; pol < WEFT_DIV_COUNT; pol++)
			for (int wi = 0; wi < 5; wi++) {
				if (project(&r, &z->cta, widths[wi], pol, &err))
					fail_msg("program \"%s\": %s", src, err.message);
				if (r.fail[0])
					fail_msg("program \"%s\": %s", src, r.fail);
				struct weft_group_stats s;
				weft_group_stats_init(&s, widths[wi], pol);
				if (weft_group_stats_add_cta(&s, &gp, &z->cta, &err))
					fail_msg("program \"%s\": %s", src, err.message);
				assert_int_equal(s.thread_insts, executed);
			}
		weft_group_prog_free(&gp);
		weft_program_free(p);
	}
	/* most random programs can reach their exit */
	print_message("%d random programs checked\n", programs);
	assert_true(programs > 100);
	free(z);
}

static void test_emulator_warps(void **state)
{
	(void)state;
	int n = 0;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++, n++) {
		struct rec r;
		memset(&r, 0, sizeof(r));
		struct weft_emu_observer obs = { .user = &r, .launch_begin = rec_launch_begin, .launch_end = rec_launch_end,
						  .cta_begin = rec_cta_begin, .cta_end = rec_cta_end, .warp_inst = rec_warp_inst };
		struct weft_ctx_options opts;
		memset(&opts, 0, sizeof(opts));
		opts.observer = &obs;
		struct weft_ctx *ctx = weft_ctx_create(&opts);
		/* WEFT_GROUP_SIZE=default runs the bigger inputs (by hand) */
		struct weft_workload_run_opts o = { WEFT_SIZE_SMALL, 0 };
		if (getenv("WEFT_GROUP_SIZE") && weft_size_parse(getenv("WEFT_GROUP_SIZE"), &o.size))
			fail_msg("WEFT_GROUP_SIZE must be small, default or large");
		struct weft_workload_result res;
		struct weft_error err;
		memset(&err, 0, sizeof(err));
		int rc = weft_workload_run(*w, ctx, &o, &res, &err);
		if (rc)
			fail_msg("%s: %s", (*w)->name, err.message);
		if (r.fail[0])
			fail_msg("%s: %s", (*w)->name, r.fail);
		print_message("%-10s %llu launches, %llu CTAs, %llu warp insts, %llu thread insts: match\n", (*w)->name,
			      (unsigned long long)r.launches, (unsigned long long)r.ctas,
			      (unsigned long long)r.warp_insts, (unsigned long long)r.thread_insts);
		assert_true(r.launches > 0);
		assert_int_equal(r.warp_insts, res.stats.warp_insts);
		assert_int_equal(r.thread_insts, res.stats.thread_insts);
		rec_free_launch(&r);
		weft_ctx_destroy(ctx);
	}
	assert_true(n >= 18);
	if (getenv("WEFT_GROUP_BENCH"))
		for (int pol = 0; pol < WEFT_DIV_COUNT; pol++)
			print_message("width 32 %-9s: %6.0f M thread insts/s per instruction, %6.0f M/s stats\n",
				      weft_div_policy_name(pol), bench_ti[0][pol] / bench_ns[0][pol] * 1e3,
				      bench_ti[1][pol] / bench_ns[1][pol] * 1e3);
}

/* ---- through a trace file ----
 * The emulator writes a trace (weft_trace_writer) while a tee observer
 * records, per launch, CTA and warp, the number of warp instructions and a
 * hash of their (pc, mask, active) sequence. Reading the trace back, width
 * 32 IPDOM groups must give the same counts and hashes, the launch's
 * warp_insts, and every policy the launch's thread_insts. */

/* launches per workload at the small size: dither has the most (94, one
 * per pixel diagonal) */
#define TEE_MAX_LAUNCHES 256

struct tee {
	const struct weft_emu_observer *w;
	uint32_t launch, nwarps, nctas;
	uint64_t *hash[TEE_MAX_LAUNCHES], *count[TEE_MAX_LAUNCHES]; /* [launch][cta * nwarps + warp] */
	uint32_t lnwarps[TEE_MAX_LAUNCHES], lnctas[TEE_MAX_LAUNCHES];
};

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int tee_launch_begin(void *user, const struct weft_module *mod, uint32_t kernel, struct weft_dim3 grid,
			    struct weft_dim3 block, uint32_t dyn_shared, struct weft_error *err)
{
	struct tee *t = user;
	uint32_t l = t->launch;
	assert_true(l < TEE_MAX_LAUNCHES);
	t->nwarps = t->lnwarps[l] = (block.x * block.y * block.z + 31) / 32;
	t->nctas = t->lnctas[l] = grid.x * grid.y * grid.z;
	size_t n = (size_t)t->nwarps * t->nctas;
	t->hash[l] = malloc(n * sizeof(uint64_t));
	t->count[l] = calloc(n, sizeof(uint64_t));
	for (size_t i = 0; i < n; i++)
		t->hash[l][i] = 0xcbf29ce484222325ull;
	return t->w->launch_begin(t->w->user, mod, kernel, grid, block, dyn_shared, err);
}
static int tee_launch_end(void *user, struct weft_error *err)
{
	struct tee *t = user;
	t->launch++;
	return t->w->launch_end(t->w->user, err);
}
static int tee_cta_begin(void *user, uint32_t cta, struct weft_error *err)
{
	struct tee *t = user;
	return t->w->cta_begin(t->w->user, cta, err);
}
static int tee_cta_end(void *user, uint32_t cta, struct weft_error *err)
{
	struct tee *t = user;
	return t->w->cta_end(t->w->user, cta, err);
}
static int tee_warp(void *user, const struct weft_warp_event *ev, struct weft_error *err)
{
	struct tee *t = user;
	size_t i = (size_t)ev->cta_linear * t->nwarps + ev->warp;
	uint64_t h = t->hash[t->launch][i];
	h = fnv(h, ev->pc);
	h = fnv(h, ev->active | ev->guard_false);
	h = fnv(h, ev->active);
	t->hash[t->launch][i] = h;
	t->count[t->launch][i]++;
	return t->w->warp_inst(t->w->user, ev, err);
}

static void trace_groups(const struct weft_workload *wl)
{
	char path[] = "/tmp/weft-group-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct weft_error err;
	struct weft_trace_writer *w;
	assert_int_equal(weft_trace_writer_open(path, 1, &w, &err), 0);
	struct tee T;
	memset(&T, 0, sizeof(T));
	T.w = weft_trace_writer_observer(w);
	struct weft_emu_observer obs = { .user = &T, .launch_begin = tee_launch_begin, .launch_end = tee_launch_end,
					  .cta_begin = tee_cta_begin, .cta_end = tee_cta_end, .warp_inst = tee_warp };
	struct weft_ctx_options o;
	memset(&o, 0, sizeof(o));
	o.observer = &obs;
	struct weft_ctx *ctx = weft_ctx_create(&o);
	struct weft_workload_run_opts ro = { WEFT_SIZE_SMALL, 0 };
	struct weft_workload_result res;
	int rc = weft_workload_run(wl, ctx, &ro, &res, &err);
	if (rc)
		fail_msg("%s: %s", wl->name, err.message);
	if ((rc = weft_trace_writer_commit(w, &err)))
		fail_msg("%s: commit: %s", wl->name, err.message);
	struct weft_trace *t;
	if ((rc = weft_trace_open(path, &t, &err)))
		fail_msg("%s: open: %s", wl->name, err.message);
	const struct weft_trace_info *I = weft_trace_info(t);
	assert_int_equal(I->nlaunches, T.launch);
	struct weft_cta_trace c;
	weft_cta_trace_init(&c);
	for (uint32_t l = 0; l < I->nlaunches; l++) {
		const struct weft_trace_launch *L = weft_trace_launch(t, l);
		struct weft_group_prog gp;
		if (weft_group_prog_init(&gp, L->program, &err))
			fail_msg("%s: %s", wl->name, err.message);
		assert_int_equal(L->nctas, T.lnctas[l]);
		uint64_t wi = 0, ti[WEFT_DIV_COUNT][2] = { { 0 } };
		for (uint32_t cta = 0; cta < L->nctas; cta++) {
			if (weft_trace_read_cta(t, l, cta, &c, &err))
				fail_msg("%s: %s", wl->name, err.message);
			assert_int_equal(weft_group_count(c.nthreads, 32), T.lnwarps[l]);
			for (uint32_t g = 0; g < T.lnwarps[l]; g++) {
				struct weft_group_iter it;
				struct weft_group_inst in;
				assert_int_equal(weft_group_iter_init(&it, &gp, &c, 32, g, WEFT_DIV_IPDOM, 0, &err), 0);
				uint64_t h = 0xcbf29ce484222325ull, n = 0;
				while ((rc = weft_group_next(&it, &in)) == 1) {
					h = fnv(fnv(fnv(h, in.pc), in.issue), in.exec);
					n++;
				}
				if (rc < 0)
					fail_msg("%s: %s", wl->name, err.message);
				size_t i = (size_t)cta * T.lnwarps[l] + g;
				if (n != T.count[l][i] || h != T.hash[l][i])
					fail_msg("%s: launch %u CTA %u warp %u: %llu warp insts (emulator %llu)%s", wl->name, l,
						 cta, g, (unsigned long long)n, (unsigned long long)T.count[l][i],
						 h != T.hash[l][i] ? ", masks differ" : "");
				wi += n;
			}
			for (int pol = 0; pol < WEFT_DIV_COUNT; pol++)
				for (int k = 0; k < 2; k++) {
					struct weft_group_stats s;
					weft_group_stats_init(&s, k ? 64 : 8, pol);
					if (weft_group_stats_add_cta(&s, &gp, &c, &err))
						fail_msg("%s: %s", wl->name, err.message);
					ti[pol][k] += s.thread_insts;
				}
		}
		assert_int_equal(wi, L->warp_insts);
		for (int pol = 0; pol < WEFT_DIV_COUNT; pol++)
			for (int k = 0; k < 2; k++)
				assert_int_equal(ti[pol][k], L->thread_insts);
		weft_group_prog_free(&gp);
		free(T.hash[l]);
		free(T.count[l]);
	}
	weft_cta_trace_free(&c);
	weft_trace_close(t);
	unlink(path);
	weft_ctx_destroy(ctx);
}

static void test_trace_file_warps(void **state)
{
	(void)state;
	int n = 0;
	for (const struct weft_workload *const *w = weft_workloads; *w; w++, n++)
		trace_groups(*w);
	assert_true(n >= 18);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_names),
		cmocka_unit_test(test_ifelse),
		cmocka_unit_test(test_ifelse_wide),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_early_exit),
		cmocka_unit_test(test_continue),
		cmocka_unit_test(test_bad_trace),
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_emulator_warps),
		cmocka_unit_test(test_trace_file_warps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
