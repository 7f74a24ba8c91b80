/*
 * trace_edge_ptx.h - a PTX kernel for the trace tests that exercises what
 * the trace encoding must get right: CTAs whose threads all exit at once
 * (ctaid.x == 1), threads that exit at their first branch (tid % 5 == 3),
 * per-thread loop trip counts (tid % 7), guarded stores and loads (odd and
 * even iterations), 3-D thread ids, shared memory and a barrier.
 * out[gid * 16 + i] gets i on odd iterations; gid is the global linear
 * thread id, so `out` needs 64 bytes per thread.
 */
#ifndef WEFT_TRACE_EDGE_PTX_H
#define WEFT_TRACE_EDGE_PTX_H

static const char trace_edge_ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry edge(.param .u64 pout)\n{\n"
	".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n"
	".shared .align 4 .b8 sbuf[4096];\n"
	"ld.param.u64 %rd1, [pout];\n"
	"cvta.to.global.u64 %rd1, %rd1;\n"
	"mov.u32 %r2, %tid.x;\nmov.u32 %r3, %tid.y;\nmov.u32 %r4, %tid.z;\n"
	"mov.u32 %r5, %ntid.x;\nmov.u32 %r6, %ntid.y;\nmov.u32 %r7, %ntid.z;\n"
	"mad.lo.s32 %r8, %r4, %r6, %r3;\n"
	"mad.lo.s32 %r8, %r8, %r5, %r2;\n"             /* linear tid */
	"mov.u32 %r9, %ctaid.x;\nmov.u32 %r10, %ctaid.y;\nmov.u32 %r11, %ctaid.z;\n"
	"mov.u32 %r12, %nctaid.x;\nmov.u32 %r13, %nctaid.y;\n"
	"mad.lo.s32 %r14, %r11, %r13, %r10;\n"
	"mad.lo.s32 %r14, %r14, %r12, %r9;\n"          /* linear CTA id */
	"mul.lo.s32 %r15, %r5, %r6;\nmul.lo.s32 %r15, %r15, %r7;\n" /* threads per CTA */
	"mad.lo.s32 %r16, %r14, %r15, %r8;\n"          /* gid */
	"setp.eq.s32 %p1, %r9, 1;\n"
	"@%p1 bra DONE;\n"                              /* whole CTA leaves */
	"and.b32 %r17, %r8, 1023;\nshl.b32 %r17, %r17, 2;\n"
	"mov.u32 %r18, sbuf;\nadd.s32 %r18, %r18, %r17;\n"
	"st.shared.u32 [%r18], %r8;\n"
	"bar.sync 0;\n"
	"ld.shared.u32 %r19, [%r18];\n"
	"rem.u32 %r20, %r8, 5;\n"
	"setp.eq.s32 %p2, %r20, 3;\n"
	"@%p2 ret;\n"                                   /* thread leaves early */
	"mul.wide.u32 %rd2, %r16, 64;\n"
	"add.s64 %rd3, %rd1, %rd2;\n"
	"rem.u32 %r21, %r8, 7;\n"
	"mov.u32 %r22, 0;\n"
	"LOOP:\n"
	"setp.ge.u32 %p3, %r22, %r21;\n"
	"@%p3 bra AFTER;\n"
	"and.b32 %r23, %r22, 1;\n"
	"setp.eq.s32 %p4, %r23, 1;\n"
	"mul.wide.u32 %rd4, %r22, 4;\n"
	"add.s64 %rd5, %rd3, %rd4;\n"
	"@%p4 st.global.u32 [%rd5], %r22;\n"
	"@!%p4 ld.global.u32 %r24, [%rd5];\n"
	"add.s32 %r22, %r22, 1;\n"
	"bra.uni LOOP;\n"
	"AFTER:\n"
	"st.global.u32 [%rd3+60], %r19;\n"
	"DONE:\n"
	"ret;\n"
	"}\n";

#endif
