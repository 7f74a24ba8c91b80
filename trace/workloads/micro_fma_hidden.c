/*
 * micro_fma_hidden.c - host driver for micro_fma_hidden.cu: micro_fma_chain's
 * kernel and driver at one CTA of 1024 threads (32 warps), so that other
 * warps' FMAs fill the latency of each warp's dependent chain. The driver
 * is micro_fma_chain.c, included here after micro_fma_hidden.cu has named
 * the kernel and set the thread count.
 */
#include "micro_fma_hidden.cu" /* MICRO_FMA_KERNEL micro_fma_hidden, MICRO_FMA_THREADS 1024 */

#define MICRO_FMA_DESCRIPTION \
	"microkernel: FMA latency hidden by 32 warps, 256 dependent fma.rn.f32 per thread"

#include "micro_fma_chain.c"
