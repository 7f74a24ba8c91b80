/*
 * fabric.c - the dataflow-fabric timing model: SGMF / MT-CGRA ("sgmf") and
 * dMT-CGRA ("dmt"). docs/models/dataflow.md ("Timing") explains every
 * mechanism with what the publications say, the readings they allow, the
 * one weft uses and its config key, with worked examples.
 *
 * Sources: D. Voitsechov and Y. Etsion, "Single-Graph Multiple Flows:
 * Energy Efficient Design Alternative for GPGPUs", ISCA 2014 (SGMF: the
 * core of 108 units, token buffers, threads in flight = critical path x
 * token buffer, thread epochs, reservation buffers, partitioning, loops,
 * the 54.30 mm^2 synthesis); D. Voitsechov, O. Port and Y. Etsion,
 * "Inter-Thread Communication in Multithreaded, Reconfigurable Coarse-Grain
 * Arrays", MICRO 2018 (dMT-CGRA: elevators, eLSUs, cascades, live value
 * cache; its baseline is called MT-CGRA); D. Voitsechov and Y. Etsion,
 * "Control Flow Coalescing on a Hybrid Dataflow/von Neumann GPGPU", MICRO
 * 2015 (VGIW: restates SGMF's predication cost). The memory system is the
 * GTX480's as GPGPU-Sim configures it (configs/tested-cfgs/SM2_GTX480).
 *
 * The kernel's graph (graph.h) is mapped onto one core (map.h): loops
 * split into init / body / epilogue kernels, kernels too big for the
 * units partitioned into sub-kernels with spilled live values, small ones
 * replicated. The (sub-)kernels run one after another. Per (sub-)kernel k
 * with R_k replicas (each taking `rate` threads per cycle: 1, or less when
 * its delay FIFOs were not placed, map.h) and V_k thread visits on the
 * busiest core (the threads that reach its code; a loop body: the sum of
 * their trip counts), the bounds are:
 *
 *  (1) issue:    V_k / (R_k x rate): one new thread per cycle per replica.
 *  (2) latency:  Little's law: threads in flight N_k x T x R_k (N_k grid
 *                nodes on the critical path, T token-buffer entries: the
 *                SGMF paper's "critical path 3 x 16 entries = 48 threads")
 *                cover the time a thread waits in buffers, W_k: the
 *                critical path with every memory node at the part of its
 *                average latency not spent in a fixed pipeline (L1 hits,
 *                shared memory, constants: with hit_pipelined). Throughput
 *                min(R_k, N_k T R_k / W_k); bound V_k / that.
 *  (3) ldst:     each LDST node serves its accesses in thread order
 *                (fabric_replay.c) through T reservation entries; an
 *                access holds one for its latency (L1 misses, atomics)
 *                or, in a fixed pipeline, for the unit's own cycle only.
 *                epoch_rule = admission: an access enters when an entry
 *                is free (a heap of release times, fabric_ldst_feed);
 *                completion: an epoch of T waits until the previous epoch
 *                has returned. Bound: the busiest node's time / R_k.
 *  (4) special:  `special_blocks` non-pipelined blocks of
 *                `special_latency` per unit (weft_fabric_special_cycles).
 *  (5) loop:     a thread runs its iterations one after another:
 *                trip_max x L_k (L_k the critical path at full latency).
 *  (6) kernel:   C_k = max(bounds) + L_k (fill and drain).
 *  (7) launch:   sum_k C_k + configuration loads (l2_latency +
 *                config_bytes / config_bytes_per_cycle each) + barrier
 *                drains: threads at a barrier leave the fabric, so one
 *                episode serves the CTAs whose shared memory fits the
 *                core at once (mem.shmem_bytes) and drains the (sub-)kernel
 *                holding the barrier once.
 *  (8) memory:   L1 bank words (no warp coalescing), L1 MSHRs (misses x
 *                latency / l1_mshrs), shared banks, L2 banks, DRAM bytes /
 *                bandwidth. L1 write-back, write-allocate (SGMF ISCA 2014),
 *                private per core; L2 shared.
 *  (9) cycles = max(launch, memory bounds). The CPI stack gives each
 *                (sub-)kernel's cycles beyond its fill to the bound that set
 *                them, fills / configuration / barriers to their own
 *                names, and a memory bound above the fabric's time the
 *                difference; the limiter is its largest component.
 *
 * Spills (live values between sub-kernels, loop-carried values of a loop
 * body) are one word per value per thread, laid out thread after thread:
 * one L1 miss per line of threads when they do not fit the L1
 * (weft_fabric_spill); a value is stored only by threads that load it again.
 * With split_loops = false a loop stays in one configuration (its nodes
 * fire per iteration) or the kernel is refused when it does not fit.
 *
 * Several cores (sgmf-15core): CTA i runs on core i mod cores; the busiest
 * core's share is ceil(CTAs / cores) / CTAs; L2 and DRAM are shared.
 *
 * dMT-CGRA ("dmt"): the communication analysis (dmt_comm.h,
 * docs/models/dmt.md) runs first over the launch. Removed instructions
 * (elevator-carried shared loads, the stores only they read, barriers,
 * address arithmetic and guards that only served them) take no unit and
 * make no access; each elevator load becomes its elevator control nodes
 * with one control latency per cascade on its path; communication beyond
 * max_cascade goes through the live value cache; a global load whose
 * previous thread (fabric order) read the same address is forwarded by the
 * eLSU when the analysis found reuse there. Thread instructions reported =
 * executed - removed; stats dmt_simt_ops, dmt_ops and dmt_removed_* give
 * them by reason.
 *
 * Energy events: every node fires once per thread visit (predication
 * computes both sides of a branch, VGIW MICRO 2015); a compute/special
 * firing counts its functional-unit event (the SIMT model's names), a
 * control unit fabric_control_fire; each token writes and reads a token
 * buffer entry and crosses hops_per_token switches; each LDST/special
 * operation a reservation entry; each thread memory access an L1 word;
 * L2 transactions, their interconnect flits (noc_flit) and DRAM bytes as
 * in the SIMT model; configuration bytes; elevator re-tags, eLSU forwards,
 * live-value-cache accesses. No fetch/decode/register-file events.
 *
 * Sampling: counts from the CTAs read are scaled by CTAs / CTAs read, or,
 * once the last CTA's grid padding is known, by working threads with the
 * padding's path counts taken once (weft_fabric_expansion; docs/estimate.md
 * "Grid padding in a fabric sample"). A warmed sample also feeds the CTAs
 * it does not time to the LDST units (fabric_warm.c): with every CTA
 * warmed, the units' bound, the memory nodes' mean latencies and the
 * launch's extremes (sub-kernels entered, longest trips) are the full
 * replay's; otherwise the timed CTAs' share of each unit's stream is
 * scaled and its drain counted once (fabric_timing.c, docs/estimate.md
 * "The fabric models' LDST units in a sample").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "models/memsys.h"

/* ---- schema ---- */

#define GPGPUSIM WEFT_GPGPUSIM_GTX480

#define FABRIC_KEYS \
	{ "fabric", "cores", WEFT_CFG_INT, "1", "", 1, 1024, NULL, \
	  "fabric cores; CTAs are dealt round robin; sgmf-15core has 15, one per GTX480 SM " \
	  "(Voitsechov & Etsion, ISCA 2014: one core re-organises one Fermi SM)" }, \
	{ "fabric", "clock_mhz", WEFT_CFG_DOUBLE, "1400", "MHz", 1, 10000, NULL, \
	  "core clock; assumption: the 1.4 GHz clock of the GTX480 SM whose logic the SGMF core " \
	  "re-organises (NVIDIA GeForce GTX 480 specifications)" }, \
	{ "fabric", "compute_units", WEFT_CFG_INT, "32", "", 0, 65536, NULL, \
	  "compute units (ALU + FPU, FMA, fully pipelined); SGMF core 32 (Voitsechov & Etsion, " \
	  "ISCA 2014)" }, \
	{ "fabric", "control_units", WEFT_CFG_INT, "32", "", 0, 65536, NULL, \
	  "control units (labels, branch conditions, muxes, split/join, delay FIFOs; dMT: " \
	  "elevators); SGMF core 32 (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "ldst_units", WEFT_CFG_INT, "32", "", 0, 65536, NULL, \
	  "load/store units on the perimeter; SGMF core 32 (Voitsechov & Etsion, ISCA " \
	  "2014)" }, \
	{ "fabric", "special_units", WEFT_CFG_INT, "12", "", 0, 65536, NULL, \
	  "special compute units; SGMF core 12 (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "int_div_units", WEFT_CFG_INT, "4", "", 0, 65536, NULL, \
	  "special units that divide integers; 4 (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "fp_div_units", WEFT_CFG_INT, "4", "", 0, 65536, NULL, \
	  "special units that divide floats (rcp too); 4 (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "sqrt_units", WEFT_CFG_INT, "4", "", 0, 65536, NULL, \
	  "special square-root units (weft maps the transcendentals to them, graph.h); 4 " \
	  "(Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "alu_units", WEFT_CFG_INT, "0", "", 0, 65536, NULL, \
	  "integer-only compute units when ALUs and FPUs are separate (dMT-CGRA: 32; Voitsechov, " \
	  "Port & Etsion, MICRO 2018); 0 = every compute unit has both" }, \
	{ "fabric", "fpu_units", WEFT_CFG_INT, "0", "", 0, 65536, NULL, \
	  "float-only compute units when separate (dMT-CGRA: 32; Voitsechov, Port & Etsion, " \
	  "MICRO 2018); 0 = combined" }, \
	{ "fabric", "token_buffer", WEFT_CFG_INT, "16", "entries", 1, 4096, NULL, \
	  "token buffer entries per unit (= reservation buffer, = epoch size); 16 in the " \
	  "reference design, studies sweep 1..32 (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "token_entry_bytes", WEFT_CFG_DOUBLE, "10.6667", "B", 0, 1e6, NULL, \
	  "token buffer bytes per entry per unit (area only); 18 KB / (108 units x 16 entries) " \
	  "(Voitsechov & Etsion, ISCA 2014: about 18 KB of token buffering per core)" }, \
	{ "fabric", "compute_latency", WEFT_CFG_INT, "1", "cycles", 0, 100000, NULL, \
	  "cycles per compute node; the publications give none: 1, as the SGMF paper's TLP " \
	  "example counts nodes (Voitsechov & Etsion, ISCA 2014; graph.h)" }, \
	{ "fabric", "control_latency", WEFT_CFG_INT, "1", "cycles", 0, 100000, NULL, \
	  "cycles per control node (and per elevator); 1 as compute_latency" }, \
	{ "fabric", "ldst_latency", WEFT_CFG_INT, "1", "cycles", 0, 100000, NULL, \
	  "LDST unit pipeline cycles on top of the memory latency; 1 as compute_latency" }, \
	{ "fabric", "special_latency", WEFT_CFG_INT, "8", "cycles", 1, 100000, NULL, \
	  "latency of one non-pipelined special block; 8: a unit of 8 blocks accepts a new " \
	  "operation almost every cycle (Voitsechov & Etsion, ISCA 2014), i.e. a block takes " \
	  "about 8 cycles" }, \
	{ "fabric", "special_blocks", WEFT_CFG_INT, "8", "", 1, 1024, NULL, \
	  "non-pipelined blocks per special unit; 8 (Voitsechov & Etsion, ISCA 2014: e.g. 8 " \
	  "dividers)" }, \
	{ "fabric", "epoch_rule", WEFT_CFG_ENUM, "admission", "", 0, 0, "admission|completion", \
	  "when a younger thread epoch may enter an LDST/special unit (deadlock avoidance, " \
	  "Voitsechov & Etsion, ISCA 2014): admission = once the older epoch has entered, the " \
	  "token_buffer reservation entries bounding what is in flight; completion = once every " \
	  "operation of the older epoch has returned (docs/models/dataflow.md \"Thread epochs\")" }, \
	{ "fabric", "hit_pipelined", WEFT_CFG_BOOL, "true", "", 0, 1, NULL, \
	  "L1 hits flow through the LDST/L1 pipeline in order and hold no reservation entry " \
	  "(only misses do, like MSHRs); false = every in-flight operation holds one for its " \
	  "whole latency (Voitsechov & Etsion, ISCA 2014, literally). weft's choice, see " \
	  "docs/models/dataflow.md" }, \
	{ "fabric", "replay_cache", WEFT_CFG_BOOL, "true", "", 0, 1, NULL, \
	  "reuse a launch's replay (caches, LDST units re-fed for any token buffer) from an earlier run " \
	  "in the same process with the same memory parameters: sweeps re-time only; results " \
	  "are identical (fabric_cache.c); a run alone in its process (weft-estimate with one " \
	  "point) keeps none" }, \
	{ "fabric", "split_loops", WEFT_CFG_BOOL, "true", "", 0, 1, NULL, \
	  "loops become init / body / epilogue kernels (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "partition_batch", WEFT_CFG_INT, "0", "threads", 0, 2147483647, NULL, \
	  "a kernel partitioned into sub-kernels runs them for this many threads (whole CTAs, at " \
	  "least one) before the next batch, reloading the configurations per batch; 0 = all " \
	  "the core's threads, as the SGMF paper describes partitioning (Voitsechov & Etsion, " \
	  "ISCA 2014). A what-if: batches whose spilled live values fit on chip trade " \
	  "configuration loads and pipeline fills for spill traffic (docs/models/dataflow.md " \
	  "\"Partition batches\")" }, \
	{ "fabric", "max_replicas", WEFT_CFG_INT, "0", "", 0, 65536, NULL, \
	  "cap on graph replicas; 0 = as many as fit (Voitsechov & Etsion, ISCA 2014)" }, \
	{ "fabric", "hops_per_token", WEFT_CFG_DOUBLE, "1", "", 0, 1000, NULL, \
	  "interconnect switches a token crosses (energy); assumption: producer and consumer on " \
	  "neighbouring units (Voitsechov & Etsion, ISCA 2014: 8-nearest-neighbour " \
	  "interconnect), no placement model" }, \
	{ "fabric", "config_bytes", WEFT_CFG_INT, "8192", "B", 0, 1073741824, NULL, \
	  "configuration loaded per (sub-)kernel; 8 KB configuration storage (Voitsechov, Port " \
	  "& Etsion, MICRO 2018)" }, \
	{ "fabric", "config_bytes_per_cycle", WEFT_CFG_INT, "128", "B", 1, 1048576, NULL, \
	  "configuration load rate; assumption: one 128 B L2 line per cycle (no published " \
	  "figure)" }, \
	{ "mem", "l1_bytes", WEFT_CFG_INT, "65536", "B", 128, 1073741824, NULL, \
	  "L1 data cache per core; 64 KB as the SGMF study configured GPGPU-Sim (Voitsechov & " \
	  "Etsion, ISCA 2014, Table 1)" }, \
	{ "mem", "l1_line", WEFT_CFG_INT, "128", "B", 4, 4096, NULL, \
	  "L1 line; 128 B (" GPGPUSIM " gpgpu_cache:dl1)" }, \
	{ "mem", "l1_assoc", WEFT_CFG_INT, "4", "ways", 1, 64, NULL, \
	  "L1 associativity; 4 (" GPGPUSIM " gpgpu_cache:dl1; Voitsechov & Etsion, ISCA 2014, " \
	  "Table 1)" }, \
	{ "mem", "l1_banks", WEFT_CFG_INT, "32", "", 1, 1024, NULL, \
	  "L1 banks of 4-byte words, one word per bank per cycle; 32 (Voitsechov & Etsion, ISCA " \
	  "2014, Table 1)" }, \
	{ "mem", "l1_write", WEFT_CFG_ENUM, "back", "", 0, 0, "through|back", \
	  "L1 store policy; write-back write-allocate on the fabric (Voitsechov & Etsion, ISCA " \
	  "2014)" }, \
	{ "mem", "l1_write_fetch", WEFT_CFG_BOOL, "false", "", 0, 1, NULL, \
	  "a store miss fetches the line; false: allocated without a fetch (per-byte valid " \
	  "bits; weft's assumption, no published policy)" }, \
	{ "mem", "l1_latency", WEFT_CFG_INT, "70", "cycles", 1, 100000, NULL, \
	  "L1 hit latency; 70 = 2 x gpgpu_l1_latency 35 of " GPGPUSIM }, \
	{ "mem", "l2_latency", WEFT_CFG_INT, "350", "cycles", 1, 100000, NULL, \
	  "L2 hit latency beyond the LD/ST unit; 350, the SIMT model's: 2 x 181 warp cycles " \
	  "from a load that hits the L2 to its dependent in GPGPU-Sim's GTX480 single-warp " \
	  "log, less the SM pipeline (the core sits behind the same interconnect; " \
	  "docs/models/memsys.md)" }, \
	{ "mem", "dram_latency", WEFT_CFG_INT, "550", "cycles", 1, 100000, NULL, \
	  "L2 miss latency; 550 = l2_latency 350 + 2 x dram_latency 100 of " GPGPUSIM }, \
	{ "mem", "shmem_latency", WEFT_CFG_INT, "52", "cycles", 1, 100000, NULL, \
	  "shared-memory latency; 52 = 2 x gpgpu_smem_latency 26 of " GPGPUSIM }, \
	{ "mem", "shmem_banks", WEFT_CFG_INT, "32", "", 1, 1024, NULL, \
	  "shared-memory banks of 4-byte words; 32 (" GPGPUSIM " gpgpu_shmem_num_banks)" }, \
	{ "mem", "l1_mshrs", WEFT_CFG_INT, "64", "", 0, 65536, NULL, \
	  "L1 miss-status holding registers (lines in flight per core; 0 = no limit); 64 as the " \
	  "Fermi SM (" GPGPUSIM " gpgpu_cache:dl1 MSHR field S:64:8)" }, \
	{ "mem", "noc_flit_bytes", WEFT_CFG_INT, "40", "B", 1, 4096, NULL, \
	  "interconnect flit between a core and the L2; an L2 transaction is an 8-B request and " \
	  "a line plus an 8-B header in flits, as in the SIMT model; 40 (" GPGPUSIM \
	  " icnt_flit_size; GPGPU-Sim READ_PACKET_SIZE 8)" }, \
	{ "mem", "shmem_bytes", WEFT_CFG_INT, "49152", "B", 0, 1073741824, NULL, \
	  "shared memory per core; bounds the CTAs a barrier episode serves at once (fabric.c " \
	  "(7)); 48 KB as the Fermi SM (" GPGPUSIM " gpgpu_shmem_size)" }, \
	WEFT_MEMSYS_L2_DRAM_KEYS

#define DMT_KEYS \
	{ "dmt", "min_fraction", WEFT_CFG_DOUBLE, "0.9", "", 0.000001, 1, NULL, \
	  "a shared load is elevator-carried when its most common dTID covers this share of " \
	  "its instances (dmt_comm.h; weft's choice, docs/models/dmt.md)" }, \
	{ "dmt", "max_cascade", WEFT_CFG_INT, "16", "", 1, 65536, NULL, \
	  "elevators one communication may chain before its values spill to the live value " \
	  "cache; 16 = the reference core's control/elevator units (Voitsechov, Port & Etsion, " \
	  "MICRO 2018)" }, \
	{ "dmt", "warp_width", WEFT_CFG_INT, "32", "", 1, 64, NULL, \
	  "lock-step width the analysis assumes for warp-synchronous code (dmt_comm.h)" }, \
	{ "dmt", "lvc_bytes", WEFT_CFG_INT, "65536", "B", 0, 1073741824, NULL, \
	  "live value cache; 64 KB (Voitsechov, Port & Etsion, MICRO 2018)" }, \
	{ "dmt", "lvc_latency", WEFT_CFG_INT, "70", "cycles", 1, 100000, NULL, \
	  "live value cache access; assumption: as an L1 hit (same 64 KB SRAM size, mem.l1_latency)" }

static const struct weft_config_key sgmf_keys[] = {
	FABRIC_KEYS,
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

static const struct weft_config_key dmt_keys[] = {
	FABRIC_KEYS,
	DMT_KEYS,
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

static const struct weft_event_def fabric_events[FAB_EV_COUNT] = {
	{ "fabric_int_alu", WEFT_CAT_COMP, "thread op", "integer add/logic/shift/compare/mov/cvt on a compute unit" },
	{ "fabric_int_mul", WEFT_CAT_COMP, "thread op", "32-bit integer multiply on a compute unit" },
	{ "int_div", WEFT_CAT_COMP, "thread op", "integer div/rem on a special unit" },
	{ "fabric_fp32_add", WEFT_CAT_COMP, "thread op", "f32 add/compare/min/max/cvt on a compute unit" },
	{ "fabric_fp32_mul", WEFT_CAT_COMP, "thread op", "f32 multiply on a compute unit" },
	{ "fabric_fp32_fma", WEFT_CAT_COMP, "thread op", "f32 fma/mad on a compute unit" },
	{ "fabric_fp64_op", WEFT_CAT_COMP, "thread op", "f64 on a compute unit" },
	{ "sfu_op", WEFT_CAT_COMP, "thread op", "float div, sqrt, transcendental on a special unit" },
	{ "fabric_control_fire", WEFT_CAT_COMP, "firing", "label/branch/mux/split/join firing" },
	{ "fabric_token_write", WEFT_CAT_BUFFERS, "32-bit token", "token written into a unit's buffer" },
	{ "fabric_token_read", WEFT_CAT_BUFFERS, "32-bit token", "token read out of a unit's buffer" },
	{ "fabric_noc_hop", WEFT_CAT_NOC, "32-bit token x switch", "token crossing one switch" },
	{ "fabric_reservation", WEFT_CAT_BUFFERS, "operation", "LDST/special reservation entry written and read" },
	{ "fabric_l1_word", WEFT_CAT_L1, "32-bit word", "a word of one thread's L1 access (no coalescing)" },
	{ "shmem_access", WEFT_CAT_SHMEM, "32-bit word", "shared-memory word accessed" },
	{ "l2_access", WEFT_CAT_L2, "128 B transaction", "L2 lookup: L1 fills, writebacks, atomics" },
	{ "dram_access", WEFT_CAT_DRAM, "32 B", "bytes to/from DRAM / 32" },
	{ "fabric_config_byte", WEFT_CAT_CONFIG, "byte", "configuration byte loaded into the grid" },
	{ "fabric_elevator", WEFT_CAT_BUFFERS, "value x elevator", "dMT elevator re-tagging a token" },
	{ "fabric_elsu_forward", WEFT_CAT_BUFFERS, "value", "dMT eLSU forwarding a loaded value" },
	{ "fabric_lvc_access", WEFT_CAT_BUFFERS, "32-bit value", "dMT live value cache write or read" },
	{ "noc_flit", WEFT_CAT_NOC, "flit", "interconnect flit between a core and the L2" },
};

/* ---- params ---- */

static uint32_t cfg_u(const struct weft_config *cfg, const char *sec, const char *key)
{
	int64_t v = weft_config_int(cfg, sec, key);
	return v < 0 ? 0 : (uint32_t)v;
}

int weft_fabric_params_from_config(const struct weft_config *cfg, int dmt, struct fabric_params *fp,
			      struct weft_error *err)
{
	memset(fp, 0, sizeof(*fp));
	const char *where = cfg->path[0] ? cfg->path : "config";
	fp->dmt = dmt;
	fp->explain = cfg->explain;
	fp->cores = cfg_u(cfg, "fabric", "cores");
	fp->clock_hz = weft_config_num(cfg, "fabric", "clock_mhz") * 1e6;
	fp->units.n[WEFT_DFU_COMPUTE] = cfg_u(cfg, "fabric", "compute_units");
	fp->units.n[WEFT_DFU_CONTROL] = cfg_u(cfg, "fabric", "control_units");
	fp->units.n[WEFT_DFU_LDST] = cfg_u(cfg, "fabric", "ldst_units");
	fp->units.n[WEFT_DFU_SPECIAL] = cfg_u(cfg, "fabric", "special_units");
	fp->units.special[WEFT_DFS_INT_DIV] = cfg_u(cfg, "fabric", "int_div_units");
	fp->units.special[WEFT_DFS_FP_DIV] = cfg_u(cfg, "fabric", "fp_div_units");
	fp->units.special[WEFT_DFS_SQRT] = cfg_u(cfg, "fabric", "sqrt_units");
	fp->alu_units = cfg_u(cfg, "fabric", "alu_units");
	fp->fpu_units = cfg_u(cfg, "fabric", "fpu_units");
	fp->token_buffer = cfg_u(cfg, "fabric", "token_buffer");
	fp->units.fifo_depth = fp->token_buffer;
	fp->units.max_replicas = cfg_u(cfg, "fabric", "max_replicas");
	fp->units.split_loops = weft_config_num(cfg, "fabric", "split_loops") != 0;
	fp->partition_batch = cfg_u(cfg, "fabric", "partition_batch");
	fp->token_entry_bytes = weft_config_num(cfg, "fabric", "token_entry_bytes");
	fp->lat[WEFT_DFU_COMPUTE] = cfg_u(cfg, "fabric", "compute_latency");
	fp->lat[WEFT_DFU_CONTROL] = cfg_u(cfg, "fabric", "control_latency");
	fp->lat[WEFT_DFU_LDST] = cfg_u(cfg, "fabric", "ldst_latency");
	fp->lat[WEFT_DFU_SPECIAL] = cfg_u(cfg, "fabric", "special_latency");
	fp->special_blocks = cfg_u(cfg, "fabric", "special_blocks");
	fp->epoch_rule = strcmp(weft_config_str(cfg, "fabric", "epoch_rule"), "completion") == 0
				 ? FAB_EPOCH_COMPLETION
				 : FAB_EPOCH_ADMISSION;
	fp->hit_pipelined = weft_config_num(cfg, "fabric", "hit_pipelined") != 0;
	/* a run alone in its process stores no replay nobody reads (the
	 * recorded sequences and cache entries: gaussian, sgmf-core, -j 2,
	 * peak 20.7 -> 11.8 MiB at default size, 36.9 -> 16.2 at large) */
	fp->replay_cache = weft_config_num(cfg, "fabric", "replay_cache") != 0 && !cfg->alone;
	fp->hops_per_token = weft_config_num(cfg, "fabric", "hops_per_token");
	fp->config_bytes = cfg_u(cfg, "fabric", "config_bytes");
	fp->config_bytes_per_cycle = cfg_u(cfg, "fabric", "config_bytes_per_cycle");

	fp->l1.size_bytes = cfg_u(cfg, "mem", "l1_bytes");
	fp->l1.line_bytes = cfg_u(cfg, "mem", "l1_line");
	fp->l1.assoc = cfg_u(cfg, "mem", "l1_assoc");
	fp->l1.banks = cfg_u(cfg, "mem", "l1_banks");
	if (weft_cache_write_parse(weft_config_str(cfg, "mem", "l1_write"), &fp->l1.write))
		fp->l1.write = WEFT_CACHE_WRITE_BACK;
	fp->l1.write_fetch = weft_config_num(cfg, "mem", "l1_write_fetch") != 0;
	fp->l1_latency = cfg_u(cfg, "mem", "l1_latency");
	fp->l2_latency = cfg_u(cfg, "mem", "l2_latency");
	fp->dram_latency = cfg_u(cfg, "mem", "dram_latency");
	fp->shmem_latency = cfg_u(cfg, "mem", "shmem_latency");
	fp->shmem_banks = cfg_u(cfg, "mem", "shmem_banks");
	fp->shmem_bytes = cfg_u(cfg, "mem", "shmem_bytes");
	fp->noc_flit_bytes = cfg_u(cfg, "mem", "noc_flit_bytes");
	fp->l1_mshrs = cfg_u(cfg, "mem", "l1_mshrs");
	struct weft_memsys ms;
	weft_memsys_read(cfg, &ms);
	fp->l2 = ms.l2;
	fp->l2_clock_hz = ms.l2_clock_hz;
	fp->l2_port_bytes = ms.l2_port_bytes;
	fp->dram_bytes_per_s = ms.dram_bytes_per_s;

	weft_dmt_params_default(&fp->dp);
	fp->dp.token_buffer = fp->token_buffer;
	fp->lvc_latency = fp->l1_latency;
	if (dmt) {
		fp->dp.min_fraction = weft_config_num(cfg, "dmt", "min_fraction");
		fp->dp.max_cascade = cfg_u(cfg, "dmt", "max_cascade");
		fp->dp.warp_width = cfg_u(cfg, "dmt", "warp_width");
		fp->dp.lvc_bytes = cfg_u(cfg, "dmt", "lvc_bytes");
		fp->lvc_latency = cfg_u(cfg, "dmt", "lvc_latency");
	}

	if (!fp->cores || !fp->clock_hz || !fp->token_buffer || !fp->l2_clock_hz || !fp->l2_port_bytes ||
	    !fp->shmem_banks || !fp->l1.banks)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: a [fabric]/[mem] value the fabric model divides by is 0 (is the "
				      "config's [model] name = sgmf or dmt?)", where);
	uint32_t sp = 0;
	for (unsigned k = 0; k < WEFT_DFS_COUNT; k++)
		sp += fp->units.special[k];
	if (sp > fp->units.n[WEFT_DFU_SPECIAL])
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: fabric.int_div_units + fp_div_units + sqrt_units = %u exceeds "
				      "fabric.special_units = %u; make them add up",
				      where, sp, fp->units.n[WEFT_DFU_SPECIAL]);
	if (fp->l1.line_bytes != fp->l2.line_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: mem.l1_line = %u differs from mem.l2_line = %u; the model moves "
				      "whole lines between L1 and L2, so make them equal",
				      where, fp->l1.line_bytes, fp->l2.line_bytes);
	return 0;
}

/* ---- ops ---- */

static void fabric_free(void *state)
{
	struct fabric_state *s = state;
	if (!s)
		return;
	weft_fabric_launch_end(s);
	free(s->fill_sel);
	if (s->cores)
		for (uint32_t i = 0; i < s->fp.cores; i++) {
			weft_cache_free(&s->cores[i].l1);
			free(s->cores[i].l1_bank);
			free(s->cores[i].sh_bank);
		}
	free(s->cores);
	if (s->l2.tag)
		weft_cache_free(&s->l2);
	weft_fabric_prepared_free(&s->own);
	free(s->feeds);
	weft_launch_results_free(s->launches, s->nlaunches);
	free(s);
}

static int fabric_init_mode(const struct weft_config *cfg, int dmt, void **state, struct weft_error *err)
{
	struct fabric_state *s = calloc(1, sizeof(*s));
	*state = NULL;
	if (!s)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the fabric model");
	int rc = weft_fabric_params_from_config(cfg, dmt, &s->fp, err);
	if (rc) {
		free(s);
		return rc;
	}
	s->cores = calloc(s->fp.cores, sizeof(*s->cores));
	if (!s->cores) {
		free(s);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the fabric cores");
	}
	const char *which = "l1";
	for (uint32_t i = 0; i < s->fp.cores && !rc; i++) {
		rc = weft_cache_init(&s->cores[i].l1, &s->fp.l1, err);
		s->cores[i].l1_bank = calloc(s->fp.l1.banks, sizeof(uint64_t));
		s->cores[i].sh_bank = calloc(s->fp.shmem_banks, sizeof(uint64_t));
		if (!rc && (!s->cores[i].l1_bank || !s->cores[i].sh_bank))
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for bank counters");
	}
	if (!rc) {
		which = "l2";
		rc = weft_cache_init(&s->l2, &s->fp.l2, err);
	}
	if (rc) {
		weft_error_prefix(err, "%s: [mem] %s_bytes/%s_line/%s_assoc: ",
				  cfg->path[0] ? cfg->path : "config", which, which, which);
		fabric_free(s);
		return rc;
	}
	*state = s;
	return 0;
}

static int sgmf_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	return fabric_init_mode(cfg, 0, state, err);
}

static int dmt_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	return fabric_init_mode(cfg, 1, state, err);
}

/* ---- per launch: begin, every CTA, end (model.h; consume_launch is the
 * three in a row) ---- */

static int fabric_begin(void *state, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct fabric_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	s->restored = 0;
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	int rc = weft_fabric_launch_begin(s, L->program, err);
	s->warming = sample && sample->warm && sample->kind != WEFT_SAMPLE_ALL;
	s->launch_ctas = L->nctas;
	s->launch_tpc = L->threads_per_cta;
	if (!rc && s->fp.dmt) {
		/* the communication analysis first (its own pass over the
		 * launch): what the replay must skip */
		rc = weft_dmt_analyse_launch(t, launch, sample, &s->fp.dp, &s->dmt, err);
		if (!rc) {
			s->dmt_ok = 1;
			for (uint32_t pc = 0; pc < L->program->ninsts; pc++) {
				const struct weft_dmt_inst *di = &s->dmt.inst[pc];
				s->dmt_rm[pc] = di->removal;
				s->dmt_fwd[pc] = di->role == WEFT_DMT_LOAD && di->reuse_fwd > 0 ? FABRIC_FWD_LOAD
						 : di->role == WEFT_DMT_SH_LOAD && di->elevator && di->spill
							 ? FABRIC_LVC_LOAD
							 : 0;
			}
		}
	}
	if (!rc)
		rc = weft_fabric_fill_begin(s, t, launch, sample, err);
	if (rc) {
		weft_error_prefix(err, "%s model, launch %u (kernel %s): ", s->fp.dmt ? "dMT" : "SGMF",
				  launch, L->program->kernel ? L->program->kernel : "?");
		weft_fabric_launch_end(s);
		return rc;
	}
	if (s->leader) {
		/* a follower takes the leader's replay at end_launch; its LDST
		 * units are fed by the leader's replay of this launch, if it
		 * makes one (not when it restored this launch from the cache) */
		s->streamed = !s->leader->restored;
		return 1;
	}
	if (weft_fabric_cache_lookup(s, t, launch, sample)) {
		s->restored = 1;
		return 1;
	}
	return 0;
}

static int fabric_consume_cta(void *state, const struct weft_cta_trace *cta, struct weft_error *err)
{
	return weft_fabric_replay_cta(state, cta, err);
}

/* the walk's sample: with a window, the fill too (fabric_warm.c) */
static struct weft_cta_sample fill_sample(const struct fabric_state *s,
					 const struct weft_cta_sample *sample)
{
	struct weft_cta_sample fs = { .kind = WEFT_SAMPLE_ALL };
	if (sample) {
		fs = *sample;
		fs.warm_fill = weft_fabric_fill_ctas(s);
	}
	return fs;
}

static uint32_t fabric_warm_fill(void *state)
{
	return weft_fabric_fill_ctas(state);
}

static int on_cta(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	return weft_fabric_replay_cta(user, c, err);
}

static int on_warm(void *user, const struct weft_cta_trace *c, struct weft_error *err)
{
	return weft_fabric_warm_cta(user, c, err);
}

/* The single-config path's split of a CTA (weft_trace_for_each_cta_prep):
 * what its replay gathers from the CTA alone is gathered where it was
 * decoded, then applied to the caches in CTA order. */
static int prep_cta(void *user, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	if (weft_fabric_fill_skip(user, c->cta))
		return 0; /* a fill CTA the caches no longer need: skipped in order too */
	return weft_fabric_prepare_cta(user, c, out, err);
}

static void prep_release(void *out)
{
	weft_fabric_prepared_free(out);
}

static int use_cta(void *user, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)err;
	weft_fabric_apply_cta(user, c, prepared);
	return 0;
}

/* a CTA outside a warmed sample, prepared like the others */
static int warm_prepared(void *user, const struct weft_cta_trace *c, void *prepared, struct weft_error *err)
{
	(void)err;
	weft_fabric_warm_apply(user, c, prepared);
	return 0;
}

/* The prepared CTA holds every access (fabric.h struct fabric_prepared):
 * use_cta and warm_prepared read of the CTA only its id, so the walk
 * drops each decoded CTA once it is prepared (trace.h compact). Not for
 * dMT: its communication analysis, a pass of its own on the calling
 * thread, is most of its time (sgemm large, -j 2: 92% of the CPU samples
 * on the calling thread with the compact replay), and the compact
 * replay's decoder thread ahead raised its peak memory 31.5 -> 49.2 MiB
 * (/usr/bin/time %M) for a two-core bound of 1.08x. */
static uint64_t prep_bytes(const void *user, const struct weft_trace_launch *L)
{
	(void)user;
	return weft_fabric_prepared_bytes(L);
}

/* keep: a prepared CTA fits itself to the launch's program
 * (fabric_replay.c prepared_fit), so the walk keeps the results from
 * launch to launch (gaussian default size, sgmf-core -j 2: allocating,
 * faulting in and freeing them per launch took 45% of the CPU samples) */
static const struct weft_cta_prep fabric_prep = { sizeof(struct fabric_prepared), prep_cta, prep_release,
						  prep_bytes, 1 };
static const struct weft_cta_prep fabric_prep_dmt = { sizeof(struct fabric_prepared), prep_cta, prep_release,
						      NULL, 1 };

static int fabric_end(void *state, struct weft_trace *t, uint32_t launch,
		      const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct fabric_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	int rc = 0;
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	const char *kname = L->program->kernel ? L->program->kernel : "?";
	if (s->leader && !s->restored) {
		/* the leader stored its replay at its end_launch; should it not
		 * have (memory), replay here */
		if (weft_fabric_cache_lookup(s, t, launch, sample)) {
			s->restored = 1;
		} else {
			/* the leader's feeds are dropped: the replay feeds them again */
			if (s->streamed)
				for (uint32_t pc = 0; pc < L->program->ninsts; pc++)
					memset(&s->pc[pc].q, 0, sizeof(s->pc[pc].q));
			s->streamed = 0;
			struct weft_cta_sample fs = fill_sample(s, sample);
			rc = weft_trace_for_each_cta_warm(t, launch, &fs, 0, on_cta, on_warm, s, err);
		}
	}
	if (!rc && !s->restored) {
		weft_fabric_replay_flush(s);
		weft_fabric_cache_store(s, t, launch, sample);
		weft_fabric_feeds_flush(s); /* after the store, which keeps the sequences */
	}
	struct weft_launch_result *r = NULL;
	if (!rc)
		rc = weft_launch_result_push(&s->launches, &s->nlaunches, &s->launches_cap, FAB_EV_COUNT,
					     &r, err);
	if (!rc) {
		r->launch = launch;
		snprintf(r->kernel, sizeof(r->kernel), "%s", kname);
		rc = weft_fabric_time_launch(s, L, launch, r, err);
		if (rc) {
			/* take the unfilled result back */
			weft_launch_result_pop(s->launches, &s->nlaunches);
		}
	}
	if (!rc) {
		for (int i = 0; i < FAB_EV_COUNT; i++)
			s->total_ev[i] += r->events[i];
		s->total_cycles += r->cycles;
		s->total_insts += r->thread_insts;
	}
	weft_fabric_launch_end(s);
	if (rc)
		weft_error_prefix(err, "%s model, launch %u (kernel %s): ", s->fp.dmt ? "dMT" : "SGMF",
				  launch, kname);
	return rc;
}

static int fabric_consume(void *state, struct weft_trace *t, uint32_t launch,
			  const struct weft_cta_sample *sample, struct weft_error *err)
{
	int rc = fabric_begin(state, t, launch, sample, err);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		struct weft_cta_sample fs = fill_sample(state, sample);
		const struct fabric_state *fst = state;
		rc = weft_trace_for_each_cta_prep_warm(t, launch, &fs, 0,
						       fst->fp.dmt ? &fabric_prep_dmt : &fabric_prep, use_cta,
						       warm_prepared, state, err);
		if (rc) {
			struct fabric_state *s = state;
			const struct weft_trace_launch *L = weft_trace_launch(t, launch);
			weft_error_prefix(err, "%s model, launch %u (kernel %s): ", s->fp.dmt ? "dMT" : "SGMF",
					  launch, L && L->program->kernel ? L->program->kernel : "?");
			weft_fabric_launch_end(s);
			return rc;
		}
	}
	return fabric_end(state, t, launch, sample, err);
}

/* A configuration whose replay key equals the leader's (same memory-side
 * parameters; fabric_cache.c) takes the leader's replay through the
 * replay cache, its LDST units fed by the leader while it replays
 * (fabric_replay.c, in batches). Not for the dMT model (its analysis depends on the
 * token buffer) or with the cache off. */
static int fabric_follow(void *state, void *leader)
{
	struct fabric_state *s = state, *l = leader;
	if (s->fp.dmt || l->fp.dmt || !s->fp.replay_cache || !l->fp.replay_cache ||
	    weft_fabric_replay_params_hash(&s->fp) != weft_fabric_replay_params_hash(&l->fp))
		return 0;
	struct fabric_state **f = realloc(l->feeds, ((size_t)l->nfeeds + 1) * sizeof(*f));
	if (!f)
		return 0; /* no memory to follow: it replays on its own (same results) */
	l->feeds = f;
	l->feeds[l->nfeeds++] = s;
	s->leader = l;
	return 1;
}

static int fabric_components(void *state, struct weft_component *out, uint32_t max, uint32_t *n,
			     struct weft_error *err)
{
	const struct fabric_params *fp = &((struct fabric_state *)state)->fp;
	struct weft_component c[8];
	double cores = fp->cores;
	double units = 0;
	for (unsigned u = 0; u < WEFT_DFU_COUNT; u++)
		units += fp->units.n[u];
	double alu = fp->alu_units ? fp->alu_units : fp->units.n[WEFT_DFU_COMPUTE];
	double fpu = fp->fpu_units ? fp->fpu_units : fp->units.n[WEFT_DFU_COMPUTE];
	double token_bits = units * fp->token_buffer * fp->token_entry_bytes * 8;
	double cfg_bits = (double)fp->config_bytes * 8;
	double kib = fp->l1.size_bytes / 1024.0 + (fp->dmt ? fp->dp.lvc_bytes / 1024.0 : 0);
	weft_component_set(&c[0], "fabric_alu_unit", cores * alu, "%s",
			   fp->alu_units ? "cores x alu_units" : "cores x compute_units (ALU part)");
	weft_component_set(&c[1], "fabric_fpu_unit", cores * fpu, "%s",
			   fp->fpu_units ? "cores x fpu_units" : "cores x compute_units (FPU part)");
	weft_component_set(&c[2], "fabric_control_unit", cores * fp->units.n[WEFT_DFU_CONTROL],
			   "cores x control_units");
	weft_component_set(&c[3], "fabric_ldst_unit", cores * fp->units.n[WEFT_DFU_LDST],
			   "cores x ldst_units");
	weft_component_set(&c[4], "fabric_special_unit", cores * fp->units.n[WEFT_DFU_SPECIAL],
			   "cores x special_units");
	weft_component_set(&c[5], "register_bit", cores * (token_bits + cfg_bits),
			   "cores x (units x token_buffer x token_entry_bytes + config_bytes) x 8");
	weft_component_set(&c[6], "sram_kib", cores * kib, "%s",
			   fp->dmt ? "cores x (l1_bytes + lvc_bytes) / 1024" : "cores x l1_bytes / 1024");
	weft_component_set(&c[7], "fabric_switch", cores * units, "cores x units (one switch per unit)");
	if (max < 8)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "room for %u components, need 8", max);
	memcpy(out, c, sizeof(c));
	*n = 8;
	return 0;
}

static int fabric_finish(void *state, struct weft_model_result *res, struct weft_error *err)
{
	struct fabric_state *s = state;
	int rc = weft_model_result_take(res, s->fp.clock_hz, s->total_cycles, s->total_insts, s->total_ev,
					FAB_EV_COUNT, &s->launches, &s->nlaunches, &s->launches_cap, err);
	if (rc)
		return rc;
	rc = fabric_components(s, res->components, WEFT_MAX_COMPONENTS, &res->ncomponents, err);
	if (rc)
		return rc;
	weft_stat_add(res->stats, &res->nstats, "cores", s->fp.cores, "");
	weft_stat_add(res->stats, &res->nstats, "token_buffer", s->fp.token_buffer, "entries");
	if (s->fp.dmt) {
		weft_stat_add(res->stats, &res->nstats, "dmt_removed_insts", s->total_removed, "");
		char key[48];
		for (uint32_t b = 0; b < WEFT_DMT_DIST_BUCKETS; b++) {
			uint32_t lo, hi;
			weft_dmt_dist_bucket(b, &lo, &hi);
			if (lo == hi)
				snprintf(key, sizeof(key), "dmt_dist_%u", lo);
			else
				snprintf(key, sizeof(key), "dmt_dist_%u_%u", lo, hi);
			weft_stat_add(res->stats, &res->nstats, key, s->total_dist[b], "loads");
		}
	}
	return 0;
}

const struct weft_model weft_model_sgmf = {
	.name = "sgmf",
	.description = "dataflow fabric SGMF / MT-CGRA: threads streamed through a mapped graph, "
		       "token buffers, epochs, replication/partitioning, L1/L2/DRAM without coalescing",
	.keys = sgmf_keys,
	.events = fabric_events,
	.nevents = FAB_EV_COUNT,
	.init = sgmf_init,
	.consume_launch = fabric_consume,
	.finish = fabric_finish,
	.free = fabric_free,
	.components = fabric_components,
	.begin_launch = fabric_begin,
	.consume_cta = fabric_consume_cta,
	.end_launch = fabric_end,
	.follow = fabric_follow,
	.warm_cta = on_warm,
	.warm_fill = fabric_warm_fill,
};

const struct weft_model weft_model_dmt = {
	.name = "dmt",
	.description = "dMT-CGRA: the SGMF fabric with inter-thread communication through elevators "
		       "and eLSUs (barriers and address arithmetic that served it removed)",
	.keys = dmt_keys,
	.events = fabric_events,
	.nevents = FAB_EV_COUNT,
	.init = dmt_init,
	.consume_launch = fabric_consume,
	.finish = fabric_finish,
	.free = fabric_free,
	.components = fabric_components,
	.begin_launch = fabric_begin,
	.consume_cta = fabric_consume_cta,
	.end_launch = fabric_end,
	.follow = fabric_follow,
	.warm_cta = on_warm,
	.warm_fill = fabric_warm_fill,
};
