// micro_fma_hidden.cu - microkernel: FMA latency hidden by many warps.
// The kernel of micro_fma_chain.cu (included: one kernel text), named
// micro_fma_hidden, for one CTA of 1024 threads (32 warps). Each warp runs
// the same 256 dependent fma.rn.f32; with 32 warps ready an SM can issue an
// FMA of some warp nearly every cycle, so throughput, not latency, bounds
// the run. The PTX is micro_fma_chain's with the kernel renamed.
#define MICRO_FMA_KERNEL micro_fma_hidden
#define MICRO_FMA_THREADS 1024 // one CTA
#include "micro_fma_chain.cu"
