/*
 * group.c - lock-step replay of a CTA's threads in groups under a
 * divergence policy (group.h; the rules are in docs/grouping.md).
 *
 * Every lane has a cursor into its thread's trace: the block it executes now
 * or next on its path, its next guard bit and its next address. A policy
 * only decides which block the group issues next and for which lanes; the
 * lanes' own paths say where each goes after the block. A block is issued
 * in three steps: start_block (checks the lanes really are on it and splits
 * them by their next block: taking the branch, going elsewhere, leaving the
 * kernel), the instructions (guard bits and addresses consumed per lane),
 * finish_block (cursors advance, the policy moves its stack or fragments).
 */
#include <stdlib.h>
#include <string.h>

#include "common/bits.h"
#include "group.h"

static const char *const policy_names[WEFT_DIV_COUNT] = {
	"ipdom", "fifo", "1stack", "2stack", "predicate",
};

const char *weft_div_policy_name(enum weft_div_policy p)
{
	return (unsigned)p < WEFT_DIV_COUNT ? policy_names[p] : "?";
}

int weft_div_policy_parse(const char *s, enum weft_div_policy *out)
{
	if (!s)
		return -1;
	if (!strncmp(s, "pvfb-", 5) && strcmp(s + 5, "ipdom") && strcmp(s + 5, "predicate"))
		s += 5;
	for (int i = 0; i < WEFT_DIV_COUNT; i++)
		if (!strcmp(s, policy_names[i])) {
			*out = (enum weft_div_policy)i;
			return 0;
		}
	if (!strcmp(s, "stack") || !strcmp(s, "simt")) {
		*out = WEFT_DIV_IPDOM;
		return 0;
	}
	return -1;
}

/* ---- per-program tables ---- */

void weft_group_prog_free(struct weft_group_prog *gp)
{
	if (!gp)
		return;
	free(gp->pcflags);
	free(gp->binfo);
	gp->pcflags = NULL;
	gp->binfo = NULL;
	gp->p = NULL;
}

int weft_group_prog_init(struct weft_group_prog *gp, const struct weft_program *p,
			 struct weft_error *err)
{
	memset(gp, 0, sizeof(*gp));
	gp->p = p;
	const char *k = p->kernel ? p->kernel : "?";
	if (!p->info || !p->blocks || (!p->insts && p->ninsts))
		return weft_error_set(err, WEFT_ERR_INTERNAL,
				      "internal error: kernel %s: program not analysed (no blocks or instruction info)", k);
	gp->pcflags = calloc((size_t)p->ninsts + 1, 1);
	gp->binfo = calloc((size_t)p->nblocks + 1, sizeof(*gp->binfo));
	if (!gp->pcflags || !gp->binfo) {
		weft_group_prog_free(gp);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory preparing kernel %s for grouping", k);
	}
	for (uint32_t pc = 0; pc < p->ninsts; pc++) {
		uint8_t f = p->info[pc].flags;
		gp->pcflags[pc] = (uint8_t)(((f & WEFT_II_GUARD) ? WEFT_GPC_GUARD : 0) |
					    ((f & WEFT_II_ADDR) ? WEFT_GPC_MEM : 0));
	}
	uint32_t next_first = 0;
	for (uint32_t b = 0; b < p->nblocks; b++) {
		const struct weft_block *B = &p->blocks[b];
		struct weft_group_binfo *bi = &gp->binfo[b];
		/* the policies compare block indices as pcs, so blocks must be
		 * numbered in layout order and tile the program */
		if (B->first != next_first || B->count == 0 || B->first + B->count > p->ninsts ||
		    B->nsucc > 2) {
			weft_group_prog_free(gp);
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "kernel %s: block %u (pc %u, %u instructions, %u successors) does not "
					      "follow block %u in layout order; the program's blocks are malformed "
					      "(a corrupt trace?)",
					      k, b, B->first, B->count, B->nsucc, b ? b - 1 : 0);
		}
		for (uint32_t j = 0; j < B->nsucc; j++)
			if (B->succ[j] >= p->nblocks) {
				weft_group_prog_free(gp);
				return weft_error_set(err, WEFT_ERR_INPUT,
						      "kernel %s: block %u has successor %u outside the program (%u blocks)",
						      k, b, B->succ[j], p->nblocks);
			}
		next_first = B->first + B->count;
		bi->first = B->first;
		bi->count = B->count;
		bi->ipdom = B->ipdom;
		bi->fall = b + 1 < p->nblocks ? b + 1 : WEFT_NO_BLOCK;
		bi->target = WEFT_NO_BLOCK;
		uint32_t last = B->first + B->count - 1;
		switch (p->insts[last].op) {
		case WEFT_OP_BRA:
			bi->end = WEFT_GEND_BRA;
			/* succ[1] is the target of a conditional branch; with one
			 * successor it is the target (unconditional, or a guarded
			 * branch to its own fall-through) */
			if (B->nsucc)
				bi->target = B->succ[B->nsucc - 1];
			bi->guarded_bra = (p->info[last].flags & WEFT_II_GCTRL) ? 1 : 0;
			break;
		case WEFT_OP_EXIT: case WEFT_OP_RET: case WEFT_OP_TRAP:
			bi->end = WEFT_GEND_EXIT;
			break;
		default:
			bi->end = WEFT_GEND_FALL;
			break;
		}
		for (uint32_t pc = B->first; pc <= last; pc++) {
			uint8_t f = gp->pcflags[pc];
			if (f & WEFT_GPC_GUARD)
				bi->nguard++;
			if ((f & WEFT_GPC_MEM) && !(f & WEFT_GPC_GUARD))
				bi->nmem++;
			if ((f & WEFT_GPC_MEM) && (f & WEFT_GPC_GUARD))
				bi->guarded_mem = 1;
		}
	}
	if (next_first != p->ninsts) {
		weft_group_prog_free(gp);
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "kernel %s: the blocks cover %u of %u instructions; the program is malformed",
				      k, next_first, p->ninsts);
	}
	return 0;
}

/* ---- errors ---- */

static int bad_trace(struct weft_group_iter *it, int lane, const char *what)
{
	const struct weft_program *p = it->gp->p;
	return weft_error_set(it->err, WEFT_ERR_INPUT,
			      "kernel %s, CTA %u, thread %u, block %u (pc %u): %s; the trace does not match its "
			      "program (corrupt or truncated trace? check it with `weft-trace verify`)",
			      p->kernel ? p->kernel : "?", it->cta, it->first_thread + (uint32_t)lane, it->block,
			      it->pc, what);
}

/* ---- iterator ---- */

/* A thread's arrays are NULL when they are empty (a thread without guards
 * or memory accesses). The lanes' cursors point at these instead, so that
 * moving a cursor by a count of 0 (finish_block skips a block's guards and
 * addresses at once) is arithmetic on an object: NULL + 0 is undefined in C
 * (UBSan's pointer-overflow check reports it). */
static const uint32_t no_blocks[1];
static const uint8_t no_bytes[1];
static const uint32_t no_offs[1];

int weft_group_iter_init(struct weft_group_iter *it, const struct weft_group_prog *gp,
			 const struct weft_cta_trace *cta, uint32_t width, uint32_t group,
			 enum weft_div_policy policy, unsigned flags, struct weft_error *err)
{
	it->gp = gp;
	it->binfo = gp->binfo;
	it->pcflags = gp->pcflags;
	it->err = err;
	it->cta = cta->cta;
	if (width < 1 || width > WEFT_GROUP_MAX_WIDTH)
		return weft_error_set(err, WEFT_ERR_INPUT, "group width %u is out of range (1..%u)", width,
				      WEFT_GROUP_MAX_WIDTH);
	if ((unsigned)policy >= WEFT_DIV_COUNT)
		return weft_error_set(err, WEFT_ERR_INPUT, "unknown divergence policy %d", (int)policy);
	if ((uint64_t)group * width >= cta->nthreads)
		return weft_error_set(err, WEFT_ERR_INPUT, "group %u of width %u is past the CTA's %u threads",
				      group, width, cta->nthreads);
	it->width = width;
	it->policy = (uint32_t)policy;
	it->flags = flags;
	it->first_thread = group * width;
	it->nlanes = cta->nthreads - it->first_thread < width ? cta->nthreads - it->first_thread : width;
	it->live = 0;
	it->in_block = 0;
	it->fresh = 0;
	it->block = 0;
	it->pc = 0;
	it->end_pc = 0;
	it->issue = it->on = it->to_target = it->exiting = it->other = 0;
	it->next_other = WEFT_NO_BLOCK;
	it->nstk = it->nstk2 = it->qhead = 0;
	it->done = 0;
	for (uint32_t l = 0; l < it->nlanes; l++) {
		const struct weft_thread_trace *t = &cta->threads[it->first_thread + l];
		const uint32_t *blocks = t->nblocks ? t->blocks : no_blocks;
		const uint8_t *guards = t->nguards ? t->guards : no_bytes;
		it->bp[l] = blocks;
		it->bend[l] = blocks + t->nblocks;
		it->gp_[l] = guards;
		it->gend[l] = guards + t->nguards;
		it->ap[l] = t->naddrs ? t->addrs : NULL;
		it->ao[l] = t->naddrs && !t->addrs ? t->addr_off : no_offs;
		it->ab[l] = t->addr_base;
		it->sp_[l] = t->naddrs ? t->spaces : no_bytes;
		it->spend[l] = it->sp_[l] + t->naddrs;
		if (l == 0)
			it->ab_all = t->addr_base;
		if (t->naddrs && (t->addrs || t->addr_base != it->ab_all))
			it->ab_all = NULL;
		if (!t->nblocks)
			continue; /* never ran */
		if (t->blocks[0] != 0)
			return bad_trace(it, (int)l, "the path does not start at the entry block");
		it->live |= 1ull << l;
	}
	it->cur.block = 0;
	it->cur.rpc = WEFT_NO_BLOCK;
	it->cur.mask = it->live;
	it->pblock = 0;
	if ((policy == WEFT_DIV_IPDOM || policy == WEFT_DIV_PVFB_1STACK || policy == WEFT_DIV_PVFB_2STACK) &&
	    it->live) {
		it->stk[0] = it->cur;
		it->nstk = 1;
	}
	if (!it->live)
		it->done = 1;
	return 0;
}

/* Issues block b for `issue` lanes of which `on` are on it. */
static int start_block(struct weft_group_iter *it, uint32_t b, uint64_t issue, uint64_t on)
{
	const struct weft_group_binfo *bi = &it->binfo[b];
	const struct weft_program *p = it->gp->p;
	it->block = b;
	it->pc = bi->first;
	it->end_pc = bi->first + bi->count;
	it->issue = issue;
	it->on = on;
	it->in_block = 1;
	it->fresh = 1;
	uint64_t T = 0, E = 0, O = 0;
	uint32_t other = WEFT_NO_BLOCK;
	const struct weft_block *B = &p->blocks[b];
	for (uint64_t m = on; m; m &= m - 1) {
		int l = __builtin_ctzll(m);
		const uint32_t *bp = it->bp[l];
		if (*bp != b)
			return bad_trace(it, l, "the lane's path is elsewhere than the block its group issues");
		if ((size_t)(it->gend[l] - it->gp_[l]) < bi->nguard)
			return bad_trace(it, l, "too few guard bits for the block");
		if (!bi->guarded_mem && (size_t)(it->spend[l] - it->sp_[l]) < bi->nmem)
			return bad_trace(it, l, "too few addresses for the block");
		if (bp + 1 == it->bend[l]) {
			E |= 1ull << l;
			continue;
		}
		uint32_t nb = bp[1];
		if (!((B->nsucc > 0 && nb == B->succ[0]) || (B->nsucc > 1 && nb == B->succ[1])))
			return bad_trace(it, l, "the path's next block is not a successor of this block");
		if (bi->end == WEFT_GEND_BRA && nb == bi->target) {
			T |= 1ull << l;
		} else {
			if (other != WEFT_NO_BLOCK && other != nb)
				return bad_trace(it, l, "lanes leave the block for more than two blocks");
			other = nb;
			O |= 1ull << l;
		}
	}
	it->to_target = T;
	it->exiting = E;
	it->other = O;
	it->next_other = other;
	return 0;
}

/* One instruction of the issued block; out may be NULL (skipping). */
static int inst_step(struct weft_group_iter *it, struct weft_group_inst *out)
{
	uint32_t pc = it->pc++;
	uint8_t f = it->pcflags[pc];
	uint64_t on = it->on, exec = on;
	it->fresh = 0;
	if (f & WEFT_GPC_GUARD) {
		exec = 0;
		for (uint64_t m = on; m; m &= m - 1) {
			int l = __builtin_ctzll(m);
			exec |= (uint64_t)(*it->gp_[l]++ & 1) << l;
		}
	} else if (pc + 1 == it->end_pc) {
		const struct weft_group_binfo *bi = &it->binfo[it->block];
		if (bi->end == WEFT_GEND_BRA && bi->guarded_bra)
			exec = it->to_target;
		else if (bi->end == WEFT_GEND_EXIT)
			exec = it->exiting;
	}
	if ((f & WEFT_GPC_MEM) && out && !(it->flags & WEFT_GROUP_NO_ADDRS) &&
	    !it->binfo[it->block].guarded_mem) {
		/* start_block checked that every lane on the block has its
		 * addresses (no guard can skip one): copy without checking */
		/* each lane reads its own thread's arrays: up to 2 x 64
		 * streams, more than a core's prefetcher follows, so fetch
		 * the next line ahead (a large CTA is not in cache) */
		const uint64_t *ab = it->ab_all;
		if (ab) {
			for (uint64_t m = exec; m; m &= m - 1) {
				int l = __builtin_ctzll(m);
				__builtin_prefetch(it->ao[l] + 16);
				__builtin_prefetch(it->sp_[l] + 64);
				uint8_t sp = *it->sp_[l]++;
				it->space[l] = sp;
				it->addr[l] = ab[sp] + *it->ao[l]++;
			}
		} else {
			for (uint64_t m = exec; m; m &= m - 1) {
				int l = __builtin_ctzll(m);
				uint8_t sp = *it->sp_[l]++;
				it->space[l] = sp;
				it->addr[l] = it->ap[l] ? *it->ap[l]++ : it->ab[l][sp] + *it->ao[l]++;
			}
		}
	} else if (f & WEFT_GPC_MEM) {
		int copy = out && !(it->flags & WEFT_GROUP_NO_ADDRS);
		for (uint64_t m = exec; m; m &= m - 1) {
			int l = __builtin_ctzll(m);
			if (it->sp_[l] == it->spend[l]) {
				it->pc = pc;
				return bad_trace(it, l, "the thread's addresses run out");
			}
			uint8_t sp = *it->sp_[l]++;
			uint64_t a = it->ap[l] ? *it->ap[l]++ : it->ab[l][sp] + *it->ao[l]++;
			if (copy) {
				it->addr[l] = a;
				it->space[l] = sp;
			}
		}
	}
	if (out) {
		out->pc = pc;
		out->block = it->block;
		out->issue = it->issue;
		out->exec = exec;
		out->is_mem = (f & WEFT_GPC_MEM) ? 1 : 0;
		out->addr = it->addr;
		out->space = it->space;
	}
	return 1;
}

int weft_group_block_inst(struct weft_group_iter *it, struct weft_group_inst *out)
{
	if (!it->in_block || it->pc >= it->end_pc)
		return 0;
	return inst_step(it, out);
}

/* Sorted fragment stacks (1-stack, 2-stack): kept by block descending, so
 * the smallest pc is on top (the end of the array); equal blocks merge. */
static void sorted_insert(struct weft_group_frag *s, uint32_t *n, uint32_t block, uint64_t mask)
{
	uint32_t i = *n;
	while (i > 0 && s[i - 1].block < block)
		i--;
	if (i > 0 && s[i - 1].block == block) {
		s[i - 1].mask |= mask;
		return;
	}
	memmove(&s[i + 1], &s[i], (*n - i) * sizeof(*s));
	s[i].block = block;
	s[i].rpc = WEFT_NO_BLOCK;
	s[i].mask = mask;
	(*n)++;
}

/* Consumes the rest of the issued block and moves the policy on. */
static int finish_block(struct weft_group_iter *it)
{
	const struct weft_group_binfo *bi = &it->binfo[it->block];
	uint64_t on = it->on;
	int rc;
	if (it->fresh && !bi->guarded_mem) {
		/* nothing read yet: every lane takes the block's guard bits and
		 * unguarded addresses at once (bounds checked in start_block) */
		for (uint64_t m = on; m; m &= m - 1) {
			int l = __builtin_ctzll(m);
			it->gp_[l] += bi->nguard;
			it->sp_[l] += bi->nmem;
			if (it->ap[l])
				it->ap[l] += bi->nmem;
			else
				it->ao[l] += bi->nmem;
		}
		it->pc = it->end_pc;
	} else {
		while (it->pc < it->end_pc)
			if ((rc = inst_step(it, NULL)) < 0)
				return rc;
	}
	it->in_block = 0;
	uint64_t E = it->exiting, T = it->to_target, O = it->other;
	for (uint64_t m = on; m; m &= m - 1) {
		int l = __builtin_ctzll(m);
		it->bp[l]++;
	}
	for (uint64_t m = E; m; m &= m - 1) {
		int l = __builtin_ctzll(m);
		if (it->gp_[l] != it->gend[l] || it->sp_[l] != it->spend[l])
			return bad_trace(it, l, "the thread's path ends with guard bits or addresses left over");
	}
	it->live &= ~E;
	uint32_t b = it->block, target = bi->target, other = it->next_other;

	switch (it->policy) {
	case WEFT_DIV_IPDOM: {
		/* as trace/emu/emu_exec.c run_warp: exited lanes leave every entry;
		 * a divergent branch makes the top its reconvergence entry and
		 * pushes the fall-through then the taken path (taken runs first);
		 * when the reconvergence point is the top's own, the top is
		 * reused for the fall-through path */
		if (E)
			for (uint32_t i = 0; i < it->nstk; i++)
				it->stk[i].mask &= ~E;
		struct weft_group_frag *t = &it->stk[it->nstk - 1];
		if (!O) {
			if (T)
				t->block = target;
		} else if (!T) {
			t->block = other;
		} else {
			uint32_t r = bi->ipdom;
			if (it->nstk + 2 > WEFT_GROUP_STACK_MAX)
				return weft_error_set(it->err, WEFT_ERR_INTERNAL,
						      "internal error: reconvergence stack overflow in CTA %u", it->cta);
			if (r == t->rpc) {
				t->block = other;
				t->mask = O;
			} else {
				t->block = r;
				it->stk[it->nstk++] = (struct weft_group_frag){ other, r, O };
			}
			it->stk[it->nstk++] = (struct weft_group_frag){ target, r, T };
		}
		break;
	}
	/* PVFB policies: Lee, Krashinsky, et al., "Convergence and
	 * scalarization for data-parallel architectures" (CGO 2013) and the
	 * Maven vector-thread work (Lee, Avizienis, Bishara, Xia, Lockhart,
	 * Batten and Asanovic, "Exploring the Tradeoffs between Programmability
	 * and Efficiency in Data-Parallel Accelerators", ISCA 2011 and ACM TOCS
	 * 2013). Fragment pc = block start pc; blocks are numbered in
	 * layout order, so block numbers compare like pcs. */
	case WEFT_DIV_PVFB_FIFO:
		/* the fall-through side continues, the taken side waits at the
		 * tail of the buffer; fragments never merge */
		if (O && T) {
			it->cur.block = other;
			it->cur.mask = O;
			uint32_t tail = (it->qhead + it->nstk2) % WEFT_GROUP_MAX_WIDTH;
			it->stk2[tail] = (struct weft_group_frag){ target, WEFT_NO_BLOCK, T };
			it->nstk2++;
		} else if (O) {
			it->cur.block = other;
			it->cur.mask = O;
		} else if (T) {
			it->cur.block = target;
			it->cur.mask = T;
		} else {
			it->cur.mask = 0;
		}
		break;
	case WEFT_DIV_PVFB_1STACK:
		/* every part goes back into the pc-sorted buffer (merging with
		 * a waiting fragment at the same pc); the smallest pc runs next.
		 * Done at every block boundary, so a fragment that reaches a
		 * waiting one's pc by a jump or by falling through merges. */
		if (T)
			sorted_insert(it->stk, &it->nstk, target, T);
		if (O)
			sorted_insert(it->stk, &it->nstk, other, O);
		it->cur.mask = 0;
		break;
	case WEFT_DIV_PVFB_2STACK:
		/* a fragment going to a block at or before this one took a
		 * backward branch: it waits for the next iteration */
		if (T) {
			if (target <= b)
				sorted_insert(it->stk2, &it->nstk2, target, T);
			else
				sorted_insert(it->stk, &it->nstk, target, T);
		}
		if (O) {
			if (other <= b)
				sorted_insert(it->stk2, &it->nstk2, other, O);
			else
				sorted_insert(it->stk, &it->nstk, other, O);
		}
		it->cur.mask = 0;
		break;
	case WEFT_DIV_PREDICATE: {
		/* full predication (the FPGA overlay's batches: Kingyens and
		 * Steffan, "The Potential for a GPU-Like Overlay Architecture for
		 * FPGAs", IJRC 2011): the group walks the blocks in layout order;
		 * a lane going back (a loop) takes the whole group back to the
		 * earliest such block */
		uint32_t back = WEFT_NO_BLOCK;
		if (T && target <= b)
			back = target;
		if (O && other <= b && other < back)
			back = other;
		it->pblock = back != WEFT_NO_BLOCK ? back : b + 1;
		break;
	}
	}
	return 0;
}

int weft_group_next_block(struct weft_group_iter *it, struct weft_group_block *out)
{
	int rc;
	if (it->in_block && (rc = finish_block(it)) < 0)
		return rc;
	if (it->done)
		return 0;
	uint32_t b;
	uint64_t issue, on;
	switch (it->policy) {
	case WEFT_DIV_IPDOM:
		for (;;) {
			if (!it->nstk) {
				it->done = 1;
				return 0;
			}
			struct weft_group_frag *t = &it->stk[it->nstk - 1];
			if (!t->mask || t->block == t->rpc) {
				it->nstk--;
				continue;
			}
			if (t->block == WEFT_NO_BLOCK)
				return bad_trace(it, __builtin_ctzll(t->mask),
						 "lanes are still running where the kernel can only have exited");
			b = t->block;
			issue = on = t->mask;
			break;
		}
		break;
	case WEFT_DIV_PVFB_FIFO:
		if (!it->cur.mask) {
			if (!it->nstk2) {
				it->done = 1;
				return 0;
			}
			it->cur = it->stk2[it->qhead];
			it->qhead = (it->qhead + 1) % WEFT_GROUP_MAX_WIDTH;
			it->nstk2--;
		}
		b = it->cur.block;
		issue = on = it->cur.mask;
		break;
	case WEFT_DIV_PVFB_1STACK:
	case WEFT_DIV_PVFB_2STACK:
		if (!it->nstk && it->nstk2) {
			/* current iteration done: the next one becomes current */
			memcpy(it->stk, it->stk2, it->nstk2 * sizeof(*it->stk));
			it->nstk = it->nstk2;
			it->nstk2 = 0;
		}
		if (!it->nstk) {
			it->done = 1;
			return 0;
		}
		it->cur = it->stk[--it->nstk];
		b = it->cur.block;
		issue = on = it->cur.mask;
		break;
	default: { /* WEFT_DIV_PREDICATE */
		if (!it->live) {
			it->done = 1;
			return 0;
		}
		b = it->pblock;
		if (b >= it->gp->p->nblocks)
			return bad_trace(it, __builtin_ctzll(it->live),
					 "lanes are still running past the program's last block");
		issue = it->live;
		on = 0;
		for (uint64_t m = issue; m; m &= m - 1) {
			int l = __builtin_ctzll(m);
			if (*it->bp[l] == b)
				on |= 1ull << l;
		}
		break;
	}
	}
	if ((rc = start_block(it, b, issue, on)) < 0)
		return rc;
	if (out) {
		out->block = b;
		out->first_pc = it->binfo[b].first;
		out->count = it->binfo[b].count;
		out->issue = issue;
		out->on = on;
		out->taken = it->to_target;
		out->exiting = it->exiting;
	}
	return 1;
}

int weft_group_next(struct weft_group_iter *it, struct weft_group_inst *out)
{
	for (;;) {
		if (it->in_block && it->pc < it->end_pc)
			return inst_step(it, out);
		int rc = weft_group_next_block(it, NULL);
		if (rc <= 0)
			return rc;
	}
}

uint32_t weft_group_pending(const struct weft_group_iter *it)
{
	if (it->done)
		return 0;
	switch (it->policy) {
	case WEFT_DIV_IPDOM:
		return it->nstk ? it->nstk - 1 : 0;
	case WEFT_DIV_PVFB_FIFO:
		return it->nstk2;
	case WEFT_DIV_PVFB_1STACK:
	case WEFT_DIV_PVFB_2STACK:
		return it->nstk + it->nstk2;
	default:
		return 0;
	}
}

/* ---- statistics ---- */

void weft_group_stats_init(struct weft_group_stats *s, uint32_t width, enum weft_div_policy policy)
{
	memset(s, 0, sizeof(*s));
	s->width = width;
	s->policy = policy;
}

int weft_group_stats_add_cta(struct weft_group_stats *s, const struct weft_group_prog *gp,
			     const struct weft_cta_trace *cta, struct weft_error *err)
{
	struct weft_group_iter iter, *it = &iter;
	uint32_t ng = weft_group_count(cta->nthreads, s->width);
	int rc = 0;
	for (uint32_t g = 0; g < ng && !rc; g++) {
		if ((rc = weft_group_iter_init(it, gp, cta, s->width, g, s->policy, WEFT_GROUP_NO_ADDRS, err)))
			break;
		s->groups++;
		struct weft_group_block blk;
		while ((rc = weft_group_next_block(it, &blk)) == 1) {
			const struct weft_group_binfo *bi = &gp->binfo[blk.block];
			unsigned ni = weft_popcount64(blk.issue);
			s->blocks++;
			uint32_t pend = weft_group_pending(it);
			s->pending_sum += pend;
			if (pend > s->pending_max)
				s->pending_max = pend;
			if (bi->nguard == 0) {
				/* every instruction runs for the on lanes, except
				 * a guarded branch or an exit at the end */
				unsigned non = weft_popcount64(blk.on);
				uint64_t last = blk.on;
				if (bi->end == WEFT_GEND_BRA && bi->guarded_bra)
					last = blk.taken;
				else if (bi->end == WEFT_GEND_EXIT)
					last = blk.exiting;
				unsigned nl = weft_popcount64(last);
				s->group_insts += blk.count;
				s->issue_lanes += (uint64_t)ni * blk.count;
				s->hist_issue[ni] += blk.count;
				s->thread_insts += (uint64_t)non * (blk.count - 1) + nl;
				s->hist_exec[non] += blk.count - 1;
				s->hist_exec[nl]++;
				continue;
			}
			struct weft_group_inst in;
			while ((rc = weft_group_block_inst(it, &in)) == 1) {
				unsigned ne = weft_popcount64(in.exec);
				s->group_insts++;
				s->thread_insts += ne;
				s->issue_lanes += ni;
				s->hist_exec[ne]++;
				s->hist_issue[ni]++;
			}
			if (rc < 0)
				break;
		}
		if (rc > 0)
			rc = 0;
	}
	return rc < 0 ? rc : 0;
}

double weft_group_stats_efficiency(const struct weft_group_stats *s)
{
	if (!s->group_insts || !s->width)
		return 0;
	return (double)s->thread_insts / ((double)s->group_insts * s->width);
}

void weft_group_stats_buckets(const struct weft_group_stats *s, uint64_t out[4])
{
	memset(out, 0, 4 * sizeof(uint64_t));
	for (uint32_t n = 1; n <= s->width && n <= WEFT_GROUP_MAX_WIDTH; n++) {
		unsigned k = 0;
		while (k < 3 && (uint64_t)n * 4 > (uint64_t)(k + 1) * s->width)
			k++;
		out[k] += s->hist_issue[n];
	}
}
