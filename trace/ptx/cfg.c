/*
 * cfg.c - Cooper-Harvey-Kennedy (post-)dominators on CSR graphs (cfg.h).
 *
 * One core routine works on a graph of m nodes rooted at `root`, given the
 * edges to walk from the root (`fw`, for the DFS postorder) and the edges
 * pointing back (`bk`: for each node, the nodes it is reached from, whose
 * dominators are intersected). Dominators: fw = successors, bk =
 * predecessors. Post-dominators: the graph gets a virtual exit node; fw =
 * predecessors (walking from the exit), bk = successors.
 */
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

static int nomem(struct weft_error *err)
{
	return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory computing (post-)dominators");
}

/* Transposes a CSR graph of m nodes: out_start[m+1], out[nedges]. */
static int transpose(uint32_t m, const uint32_t *start, const uint32_t *adj, uint32_t **out_start,
		     uint32_t **out)
{
	uint32_t ne = start[m];
	uint32_t *s = calloc((size_t)m + 2, sizeof(uint32_t));
	uint32_t *a = malloc(((size_t)ne + 1) * sizeof(uint32_t));
	if (!s || !a) {
		free(s);
		free(a);
		return -1;
	}
	for (uint32_t e = 0; e < ne; e++)
		s[adj[e] + 2]++;
	for (uint32_t b = 0; b < m; b++)
		s[b + 2] += s[b + 1];
	for (uint32_t b = 0; b < m; b++)
		for (uint32_t e = start[b]; e < start[b + 1]; e++)
			a[s[adj[e] + 1]++] = b;
	*out_start = s;
	*out = a;
	return 0;
}

/* dom[] gets the immediate dominator of each node (root: root; unreachable:
 * WEFT_CFG_NONE). */
static int chk(uint32_t m, uint32_t root, const uint32_t *fs, const uint32_t *fw, const uint32_t *bs,
	       const uint32_t *bk, uint32_t *dom)
{
	uint32_t *po = malloc((size_t)m * sizeof(uint32_t));     /* postorder number */
	uint32_t *order = malloc((size_t)m * sizeof(uint32_t));  /* node by postorder number */
	uint32_t *stack = malloc((size_t)m * 2 * sizeof(uint32_t));
	if (!po || !order || !stack) {
		free(po);
		free(order);
		free(stack);
		return -1;
	}
	for (uint32_t b = 0; b < m; b++) {
		po[b] = WEFT_CFG_NONE;
		dom[b] = WEFT_CFG_NONE;
	}
	/* iterative DFS; po[] doubles as "seen" (UINT32_MAX - 1 = on stack) */
	uint32_t cnt = 0, sp = 0;
	stack[sp++] = root;
	stack[sp++] = fs[root];
	po[root] = WEFT_CFG_NONE - 1;
	while (sp) {
		uint32_t b = stack[sp - 2], e = stack[sp - 1];
		if (e < fs[b + 1]) {
			stack[sp - 1]++;
			uint32_t q = fw[e];
			if (po[q] == WEFT_CFG_NONE) {
				po[q] = WEFT_CFG_NONE - 1;
				stack[sp++] = q;
				stack[sp++] = fs[q];
			}
		} else {
			po[b] = cnt;
			order[cnt++] = b;
			sp -= 2;
		}
	}
	dom[root] = root;
	int changed = 1;
	while (changed) {
		changed = 0;
		for (int64_t oi = (int64_t)cnt - 1; oi >= 0; oi--) {
			uint32_t b = order[oi];
			if (b == root)
				continue;
			uint32_t nw = WEFT_CFG_NONE;
			for (uint32_t e = bs[b]; e < bs[b + 1]; e++) {
				uint32_t p = bk[e];
				if (dom[p] == WEFT_CFG_NONE)
					continue;
				if (nw == WEFT_CFG_NONE) {
					nw = p;
					continue;
				}
				uint32_t x = p, y = nw;
				while (x != y) {
					while (po[x] < po[y])
						x = dom[x];
					while (po[y] < po[x])
						y = dom[y];
				}
				nw = x;
			}
			if (nw != WEFT_CFG_NONE && dom[b] != nw) {
				dom[b] = nw;
				changed = 1;
			}
		}
	}
	free(po);
	free(order);
	free(stack);
	return 0;
}

int weft_cfg_idom(uint32_t n, uint32_t root, const uint32_t *start, const uint32_t *succ,
		  uint32_t *idom, struct weft_error *err)
{
	if (n == 0)
		return 0;
	if (root >= n)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "dominators: root %u out of %u nodes", root, n);
	/* drop edges to the virtual exit (node n) so post-dominator graphs can
	 * be passed as they are */
	uint32_t *fs = malloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *fw = malloc(((size_t)start[n] + 1) * sizeof(uint32_t));
	uint32_t *ps = NULL, *pr = NULL;
	int rc = 0;
	if (!fs || !fw) {
		rc = nomem(err);
		goto out;
	}
	uint32_t k = 0;
	for (uint32_t b = 0; b < n; b++) {
		fs[b] = k;
		for (uint32_t e = start[b]; e < start[b + 1]; e++) {
			if (succ[e] > n) {
				rc = weft_error_set(err, WEFT_ERR_INTERNAL, "dominators: edge to node %u of %u",
						    succ[e], n);
				goto out;
			}
			if (succ[e] < n)
				fw[k++] = succ[e];
		}
	}
	fs[n] = k;
	if (transpose(n, fs, fw, &ps, &pr) || chk(n, root, fs, fw, ps, pr, idom))
		rc = nomem(err);
out:
	free(fs);
	free(fw);
	free(ps);
	free(pr);
	return rc;
}

int weft_cfg_ipdom(uint32_t n, const uint32_t *start, const uint32_t *succ, uint32_t *ipdom,
		   struct weft_error *err)
{
	uint32_t m = n + 1, X = n; /* node n: the virtual exit */
	uint32_t ne = start[n];
	uint32_t extra = 0;
	for (uint32_t b = 0; b < n; b++)
		extra += start[b] == start[b + 1];
	for (uint32_t e = 0; e < ne; e++)
		if (succ[e] > n)
			return weft_error_set(err, WEFT_ERR_INTERNAL, "post-dominators: edge to node %u of %u",
					      succ[e], n);
	/* the graph with the virtual exit: nodes without successors go to X */
	uint32_t *gs = malloc(((size_t)m + 1) * sizeof(uint32_t));
	uint32_t *g = malloc(((size_t)ne + extra + 1) * sizeof(uint32_t));
	uint32_t *dom = malloc((size_t)m * sizeof(uint32_t));
	uint32_t *ps = NULL, *pr = NULL;
	int rc = 0;
	if (!gs || !g || !dom) {
		rc = nomem(err);
		goto out;
	}
	uint32_t k = 0;
	for (uint32_t b = 0; b < n; b++) {
		gs[b] = k;
		if (start[b] == start[b + 1])
			g[k++] = X;
		for (uint32_t e = start[b]; e < start[b + 1]; e++)
			g[k++] = succ[e];
	}
	gs[n] = k;
	gs[m] = k;
	if (transpose(m, gs, g, &ps, &pr)) {
		rc = nomem(err);
		goto out;
	}
	/* walk from X over predecessor edges; intersect over successors */
	if (chk(m, X, ps, pr, gs, g, dom)) {
		rc = nomem(err);
		goto out;
	}
	memcpy(ipdom, dom, (size_t)n * sizeof(uint32_t));
out:
	free(gs);
	free(g);
	free(dom);
	free(ps);
	free(pr);
	return rc;
}
