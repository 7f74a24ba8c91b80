// micro_chase.cu - microkernel: the latency of dependent global loads.
// One CTA of 32 threads (a single warp); every lane follows the same linked
// list of 64-bit device pointers for MICRO_CHASE_HOPS = 64 hops, so every
// load is one 128-byte transaction and no load can start before the
// previous one returned: cycles ~ hops x memory latency. The host
// (micro_chase.c) places the nodes in scrambled order, 4 KiB apart or more,
// in one MICRO_CHASE_BYTES buffer, so every hop touches a new line. Each
// thread writes the pointer it ended on.
//
// The load is inline PTX `ld.global.u64`: C++ can only say `p = *p`, which
// nvcc emits as a generic `ld.u64` (the loaded pointer's space is unknown),
// or, told the pointer is global (__isGlobal), as a cvta.to.global before
// every load, which would put an ALU latency in the chain. Device pointers
// are global addresses as they are (cvta.to.global of a global address is
// the identity).
//
// PTX (nvcc -O3, sm_75): 2 ld.param and a mov set up; the loop (PTX lines
// 29-36, `#pragma unroll 1`, 64 iterations) is
//     ld.global.u64 %rd10, [%rd10];   the hop, dependent on the previous one
//     add.s32; setp.ne.s32; @%p1 bra  loop control, independent of the load
// then cvta, tid, mul.wide, add, st.global.u64, ret: 3 + 64 x 4 + 6 = 265
// instructions per thread.
#define MICRO_CHASE_THREADS 32
#define MICRO_CHASE_HOPS 64
#define MICRO_CHASE_BYTES (4u << 20) // the buffer holding the nodes
#define MICRO_CHASE_SLOT 4096u        // nodes sit at the start of distinct slots

#ifdef __CUDACC__
extern "C" __global__ void micro_chase(const unsigned long long *head, unsigned long long *out)
{
	unsigned long long p = (unsigned long long)head;
#pragma unroll 1
	for (int k = 0; k < MICRO_CHASE_HOPS; k++)
		asm("ld.global.u64 %0, [%1];" : "=l"(p) : "l"(p));
	out[threadIdx.x] = p;
}
#endif
