/*
 * cfg.h - dominators and post-dominators of a control-flow graph, written
 * once for the emulator (reconvergence points, emu_link.c), the static
 * program (program.c: struct weft_block.ipdom) and the models.
 *
 * Algorithm: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm"
 * (Software Practice & Experience, 2001): number the nodes in postorder of a
 * DFS from the root, then iterate idom[b] = intersect(idom of b's processed
 * predecessors) in reverse postorder until nothing changes. Post-dominators
 * are dominators of the reverse graph rooted at a virtual exit node.
 *
 * Graphs are given in CSR form: node b's successors are
 * succ[start[b] .. start[b+1]). For post-dominators, a successor equal to n
 * (the node count) is an edge to the virtual exit; a node whose successor
 * list is empty also leaves to the virtual exit (it ends the program).
 */
#ifndef WEFT_CFG_H
#define WEFT_CFG_H

#include <stdint.h>

#include "common/error.h"

/* A node with no (post-)dominator: unreachable from the root (for
 * post-dominators: cannot reach the exit, e.g. an infinite loop). */
#define WEFT_CFG_NONE 0xffffffffu

/* Immediate dominators from `root`: idom[b] for b in 0..n-1; idom[root] =
 * root; WEFT_CFG_NONE for nodes unreachable from root. */
int weft_cfg_idom(uint32_t n, uint32_t root, const uint32_t *start, const uint32_t *succ,
		  uint32_t *idom, struct weft_error *err);

/* Immediate post-dominators: ipdom[b] is a node index, n for the virtual
 * exit, or WEFT_CFG_NONE when b cannot reach the exit. */
int weft_cfg_ipdom(uint32_t n, const uint32_t *start, const uint32_t *succ, uint32_t *ipdom,
		   struct weft_error *err);

#endif
