/*
 * simt.c - the SIMT streaming-multiprocessor model ("simt"): an NVIDIA
 * Fermi GTX480 SM (or all 15) with its memory system, as GPGPU-Sim's
 * GTX480 configuration models it, or a Tesla-like configurable SM
 * (docs/models/simt.md has worked examples; the tests pin each mechanism).
 *
 * Basis. The SGMF and dMT-CGRA studies (Voitsechov & Etsion, ISCA 2014;
 * Voitsechov, Port & Etsion, MICRO 2018) compared their fabrics against
 * GPGPU-Sim's GTX480 configuration (GPGPU-Sim 4.0,
 * configs/tested-cfgs/SM2_GTX480/gpgpusim.config, "the configuration"
 * below). weft follows that configuration's mechanisms and parameters,
 * at the 1.4 GHz SM clock: the configuration's core clock domain is
 * 700 MHz, one warp instruction per scheduler per cycle on 16-lane
 * pipelines, so its cycle counts are doubled here.
 *
 * What runs. Every CTA's threads form warps of warp_size consecutive
 * threads; each warp's instruction stream is its threads' traced paths
 * under the IPDOM reconvergence stack (models/group.h, simt_stream.c), so
 * a divergent branch issues both paths with partial masks. CTAs are
 * dispatched to SMs as resident slots free (occupancy, simt_timing.c),
 * round robin over the SMs with a free slot; the first wave fills SM 0,
 * 1, ... in turn. An SM's warps are split over its `schedulers` (warp
 * slot mod schedulers); each scheduler issues at most one warp instruction
 * every R = ceil(warp_size / (sp_per_sm / schedulers)) cycles (Fermi: 32 /
 * 16 = 2), choosing greedy-then-oldest (GTO: the warp it issued last while
 * that one can issue, else the oldest that can; the configuration's
 * gpgpu_scheduler gto) or loose round robin (`lrr`, the Tesla-like SM).
 * A warp issues in program order (PTX order, as GPGPU-Sim runs PTX) and
 * can issue instruction i at time t when
 *
 *   t >= ready(r) for every register r that i reads or writes  (scoreboard)
 *   t >= free(unit of i)                                       (structural)
 *   and, under warp_serial, t >= done(i - 1)                   (no forwarding)
 *
 * Issuing occupies the unit: an SP pipeline per scheduler, one SFU
 * pipeline per SM (divides, transcendentals and, with no DP unit in the
 * configuration, double precision), one LD/ST unit per SM:
 *
 *   free(SP or SFU) = t + max(R, initiation(class))
 *   ready(dst)      = t + rf_bank_extra(i) + pipeline_latency + latency(class)
 *
 * latency/initiation(class) are the configuration's per-opcode-class
 * tables (ptx_opcode_latency_* / _initiation_*: int, fp, dp x ADD MAX MUL
 * MAD DIV, SHFL, SFU; every other op 1/1), x 2. pipeline_latency = 12 is
 * what the configuration adds around the unit: its own single-warp run
 * (golden.log beside the configuration in GPGPU-Sim 4.0.0) issues
 * dependent default-latency (1) ALU instructions 7 warp cycles apart and a
 * dependent add.s64 (latency 4) 10 apart: 6 cycles beyond the unit, x 2.
 * rf_bank_extra: the operand collector reads one operand per register
 * bank (16 banks; register number mod 16, as the configuration maps PTX
 * registers) per rf_read_cycles, so k distinct sources in one bank add
 * (k - 1) x rf_read_cycles.
 *
 * Memory (simt_memsys.c). A memory instruction needs the LD/ST unit, which
 * serves one pass over the banks per ldst_pass_cycles (2: one shared-
 * memory access or 128-B L1 transaction per 700 MHz cycle; compute
 * capability 2.x shared memory delivers 32 bits per bank per two clocks,
 * CUDA C Programming Guide):
 *
 *   shared:  passes = bank-conflict degree summed over lane groups
 *            (simt_mem.c); busy = passes x ldst_pass_cycles;
 *            ready = t + extra passes x ldst_pass_cycles + pipeline_latency
 *                    + shmem_latency
 *   global:  the active lanes' addresses coalesce into distinct 128-B
 *            segments, one L1 transaction each, issued one per
 *            l1_tx_cycles; transaction j starts at s_j. A load that hits
 *            completes at s_j + l1_latency; one that hits a line whose
 *            fill is still in flight merges into that fill's MSHR entry
 *            (at most l1_mshr_merge) and completes when it arrives; a miss
 *            needs one of l1_mshrs MSHR entries (the LD/ST unit waits until
 *            one frees: s_j moves to the earliest fill), then goes to the
 *            L2 bank of its line (line mod l2_banks), a FCFS server busy
 *            l2_service = ceil(line / l2_port_bytes) L2 clocks per line:
 *
 *              hit:  done = s_j + l2_latency + wait_L2
 *              miss: done = s_j + dram_latency + wait_L2 + wait_DRAM
 *
 *            where the DRAM channel (line mod dram_channels) is a FCFS
 *            server busy line / (dram_gbps / channels) per line. The
 *            instruction's registers are ready at max_j done_j +
 *            pipeline_latency. Stores are write-through, no-allocate at
 *            the L1 (Fermi; the configuration's dl1 'L' policy writes
 *            global data through) and occupy the bank and, on the way to
 *            DRAM, a channel; a store is complete when the L2
 *            acknowledges it (l2_latency + the bank wait), and its CTA
 *            is not done before that (GPGPU-Sim keeps a warp's stores
 *            outstanding until acknowledged; docs/models/simt.md). Atomics are performed at
 *            the L2. ld.param / ld.const: one constant-cache access
 *            priced as an L1 hit.
 *   Unloaded latencies: l1_latency 70 = the configuration's
 *   gpgpu_l1_latency 35 x 2; shmem_latency 52 = gpgpu_smem_latency 26
 *   x 2; l2_latency 350: in golden.log a global load that hits the L2 is
 *   followed by its dependent instruction 181 warp cycles later (362 core
 *   cycles, less pipeline_latency); dram_latency 550 = l2_latency + the
 *   configuration's dram_latency 100 x 2.
 *
 * Barriers. A warp reaching bar.sync waits until every warp of its CTA
 * that has not exited has arrived; it arrives R cycles after issuing it,
 * and not before its shared-memory stores are written; all leave at the
 * latest arrival.
 *
 * Cycles. A launch lasts until its last CTA's last warp has completed.
 * CTAs dispatched while every slot is busy wait for the first to free.
 *
 * CPI stack. Every cycle of every scheduler of every SM goes to one
 * component, and the stack reported is the sum over schedulers divided
 * by num_sm x schedulers, so it adds up to the cycles:
 *   issue / divergence  a warp instruction issued: R cycles, split by
 *                       the share of lanes that did work (guard true;
 *                       for a branch or exit the issued lanes) versus
 *                       idle (divergence, predication, partial warps);
 *   a stall [a, b)      no warp could issue: charged to what the warp
 *                       that issues (or finishes) first waited for, over
 *                       that wait's phases in time order: rf_bank,
 *                       dependency (SP result), sfu, pipeline (SP unit
 *                       busy: initiation interval), lsu (LD/ST unit busy:
 *                       uncoalesced transactions), bank_conflict, shmem,
 *                       mshr, l2_queue, dram_queue, then the latency of
 *                       the level that served the load (l1, l2, dram);
 *   barrier             every warp of the scheduler waits at a barrier;
 *   idle                the scheduler has no warp (launch tail, too few
 *                       CTAs or warps).
 * This is interval analysis applied to warps (Karkhanis & Smith, ISCA
 * 2004; Genbrugge, Eyerman & Eeckhout's interval simulation, HPCA 2010;
 * for GPUs Huang et al.'s GPUMech, MICRO 2014, and Lee et al.'s GCoM,
 * ISCA 2022): the core is abstracted to issue slots and the miss events
 * that stall them, while the mechanisms that make stalls add up or
 * overlap (the scheduler's choice among ready warps, the scoreboard, the
 * MSHRs and the memory queues) are simulated, so no stall is hidden unless
 * another warp really issued meanwhile. The limiter is the largest
 * component.
 *
 * Occupancy: resident CTAs per SM = min(max_threads / (warps per CTA x
 * warp_size), max_ctas, registers / (regs per thread x warps per CTA x
 * warp_size), shmem_bytes / shared bytes per CTA), registers per thread
 * from a liveness analysis (simt_timing.c).
 *
 * Sampling: when only some CTAs are read, events and instruction counts
 * are scaled by (CTAs in the launch / CTAs read); cycles too, or on one
 * SM the sample's own plus the CTAs not read at its steady pace
 * (sampled_cycles), and the CPI stack is scaled to them.
 * L1s start cold in each launch; the L2 keeps its lines across launches,
 * but its dirty lines are written back at the end of each launch (so a
 * launch's output is charged to its DRAM traffic) and stay cached, clean.
 *
 * With caches = false (Tesla-like) global/local accesses are priced like
 * shared memory: they hit the banked on-chip memory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt.h"
#include "models/memsys.h"

/* ---- schema ---- */

#define GPGPUSIM WEFT_GPGPUSIM_GTX480
#define GOLDEN "the golden.log single-warp run beside " GPGPUSIM " (GPGPU-Sim 4.0.0)"

const char *const weft_simt_cpi_names[SIMT_CPI_COUNT] = {
	"issue", "divergence", "dependency", "sfu", "rf_bank", "pipeline", "lsu", "shmem",
	"bank_conflict", "l1", "l2", "dram", "mshr", "l2_queue", "dram_queue", "barrier", "idle",
};

const char *const weft_simt_lat_names[SIMT_LAT_COUNT] = {
	"alu", "int_add", "int_max", "int_mul", "int_mad", "int_div", "shfl", "fp_add", "fp_max",
	"fp_mul", "fp_mad", "fp_div", "dp_add", "dp_max", "dp_mul", "dp_mad", "dp_div", "sfu",
};

#define LAT(k, v, what)                                                                        \
	{ "latency", k, WEFT_CFG_INT, #v, "cycles", 0, 100000, NULL,                           \
	  what " latency beyond pipeline_latency; " #v " = 2 x " GPGPUSIM " ptx_opcode_latency" }
#define INIT(k, v, what)                                                                       \
	{ "initiation", k, WEFT_CFG_INT, #v, "cycles", 0, 100000, NULL,                        \
	  what " initiation interval of its unit; " #v " = 2 x " GPGPUSIM                      \
	       " ptx_opcode_initiation" }

static const struct weft_config_key simt_keys[] = {
	{ "core", "num_sm", WEFT_CFG_INT, "1", "", 1, 1024, NULL,
	  "SMs; CTAs are dispatched to free resident slots; GTX480 has 15 (" GPGPUSIM
	  " gpgpu_n_clusters)" },
	{ "core", "clock_mhz", WEFT_CFG_DOUBLE, "1400", "MHz", 1, 10000, NULL,
	  "SM clock; GTX480 shader clock 1.4 GHz (NVIDIA GeForce GTX 480 specifications); the "
	  "configuration's 700 MHz core domain is half of it" },
	{ "core", "warp_size", WEFT_CFG_INT, "32", "threads", 1, 64, NULL,
	  "threads per warp (CUDA C Programming Guide)" },
	{ "core", "sp_per_sm", WEFT_CFG_INT, "32", "lanes", 1, 1024, NULL,
	  "streaming processors per SM; a warp instruction takes ceil(warp_size / (sp_per_sm / "
	  "schedulers)) issue cycles; Fermi 32 in two groups of 16 (NVIDIA Fermi whitepaper)" },
	{ "core", "schedulers", WEFT_CFG_INT, "2", "", 1, SIMT_MAX_SCHED, NULL,
	  "warp schedulers per SM, each issuing to sp_per_sm / schedulers lanes; 2 (" GPGPUSIM
	  " gpgpu_num_sched_per_core)" },
	{ "core", "scheduler", WEFT_CFG_ENUM, "gto", "", 0, 0, "gto|lrr",
	  "warp scheduling: greedy-then-oldest (" GPGPUSIM " gpgpu_scheduler) or loose round "
	  "robin" },
	{ "core", "sfu_units", WEFT_CFG_INT, "1", "", 0, 16, NULL,
	  "SFU pipelines per SM (divides, transcendentals, double precision); 0 = those run on the "
	  "SP lanes; 1 (" GPGPUSIM " gpgpu_num_sfu_units, gpgpu_num_dp_units 0)" },
	{ "core", "max_threads", WEFT_CFG_INT, "1536", "threads", 1, 65536, NULL,
	  "resident threads per SM; 1536 (" GPGPUSIM " gpgpu_shader_core_pipeline)" },
	{ "core", "max_ctas", WEFT_CFG_INT, "8", "", 1, SIMT_MAX_SLOTS, NULL,
	  "resident CTAs per SM; 8 (" GPGPUSIM " gpgpu_shader_cta)" },
	{ "core", "registers", WEFT_CFG_INT, "32768", "32-bit regs", 1, 16777216, NULL,
	  "register file per SM; 32768 (" GPGPUSIM " gpgpu_shader_registers)" },
	{ "core", "max_regs_per_thread", WEFT_CFG_INT, "63", "", 1, 4096, NULL,
	  "most registers one thread may use; 63 on compute capability 2.x (CUDA C Programming "
	  "Guide, technical specifications table)" },
	{ "core", "shmem_bytes", WEFT_CFG_INT, "49152", "B", 0, 1073741824, NULL,
	  "shared memory per SM; 48 KB (" GPGPUSIM " gpgpu_shmem_size)" },
	{ "core", "shmem_banks", WEFT_CFG_INT, "32", "", 1, 64, NULL,
	  "shared-memory banks of 4-byte words; lanes are served in groups of this many; 32 "
	  "(" GPGPUSIM " gpgpu_shmem_num_banks)" },
	{ "core", "warp_serial", WEFT_CFG_BOOL, "false", "", 0, 1, NULL,
	  "a warp cannot issue until its previous instruction completed (a pipeline without "
	  "forwarding: the Tesla-like SM)" },
	{ "core", "pipeline_latency", WEFT_CFG_INT, "12", "cycles", 0, 100000, NULL,
	  "issue to dependent issue beyond the unit latency (operand collection, dispatch, "
	  "writeback); 12 = 2 x 6 warp cycles, from " GOLDEN },
	{ "core", "rf_banks", WEFT_CFG_INT, "16", "", 0, 64, NULL,
	  "register banks the operand collector reads (register number mod banks); 0 or 1 = no "
	  "bank conflicts; 16 (" GPGPUSIM " gpgpu_num_reg_banks)" },
	{ "core", "rf_read_cycles", WEFT_CFG_INT, "2", "cycles", 0, 1000, NULL,
	  "cycles a register bank takes per operand read: one per 700 MHz cycle in " GPGPUSIM },
	{ "core", "ldst_pass_cycles", WEFT_CFG_INT, "2", "cycles", 1, 1000, NULL,
	  "LD/ST unit cycles per pass over the banks (a conflict-free shared access, a 128-B L1 "
	  "transaction); 2: compute capability 2.x shared memory delivers 32 bits per bank per two "
	  "clocks (CUDA C Programming Guide)" },
	{ "core", "shmem_latency", WEFT_CFG_INT, "52", "cycles", 0, 100000, NULL,
	  "shared-memory load latency beyond pipeline_latency; 52 = 2 x gpgpu_smem_latency 26 of "
	  GPGPUSIM },
	{ "core", "l1_latency", WEFT_CFG_INT, "70", "cycles", 0, 100000, NULL,
	  "L1 hit latency beyond pipeline_latency; 70 = 2 x gpgpu_l1_latency 35 of " GPGPUSIM },
	{ "core", "l2_latency", WEFT_CFG_INT, "350", "cycles", 0, 100000, NULL,
	  "unloaded L2 hit latency beyond pipeline_latency; 350 = 2 x 181 warp cycles from a "
	  "load that hits the L2 to its dependent in " GOLDEN ", less pipeline_latency" },
	{ "core", "dram_latency", WEFT_CFG_INT, "550", "cycles", 0, 100000, NULL,
	  "unloaded L2 miss latency beyond pipeline_latency; 550 = l2_latency 350 + 2 x "
	  "dram_latency 100 of " GPGPUSIM },
	{ "core", "area_basis", WEFT_CFG_ENUM, "fermi", "", 0, 0, "fermi|tesla",
	  "which area components the config reports: fermi (fermi_sm, fermi_l2_kib, "
	  "fermi_mem_channel) or tesla (tesla_sm_fixed, tesla_sp, tesla_sp_quadratic) (area/)" },
	LAT("alu", 2, "mov/logic/shift/setp/cvt/selp/branch (every op not classed below)"),
	LAT("int_add", 8, "integer add/sub"),
	LAT("int_max", 26, "integer min/max"),
	LAT("int_mul", 8, "integer mul"),
	LAT("int_mad", 10, "integer mad"),
	LAT("int_div", 290, "integer div/rem"),
	LAT("shfl", 64, "shfl"),
	LAT("fp_add", 8, "f32 add/sub"),
	LAT("fp_max", 26, "f32 min/max"),
	LAT("fp_mul", 8, "f32 mul"),
	LAT("fp_mad", 10, "f32 fma/mad"),
	LAT("fp_div", 78, "f32 div"),
	LAT("dp_add", 16, "f64 add/sub"),
	LAT("dp_max", 38, "f64 min/max"),
	LAT("dp_mul", 16, "f64 mul"),
	LAT("dp_mad", 16, "f64 fma/mad"),
	LAT("dp_div", 660, "f64 div"),
	LAT("sfu", 16, "rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh"),
	INIT("alu", 2, "default ALU op"),
	INIT("int_add", 2, "integer add/sub"),
	INIT("int_max", 4, "integer min/max"),
	INIT("int_mul", 4, "integer mul"),
	INIT("int_mad", 2, "integer mad"),
	INIT("int_div", 16, "integer div/rem"),
	INIT("shfl", 8, "shfl"),
	INIT("fp_add", 2, "f32 add/sub"),
	INIT("fp_max", 4, "f32 min/max"),
	INIT("fp_mul", 2, "f32 mul"),
	INIT("fp_mad", 2, "f32 fma/mad"),
	INIT("fp_div", 8, "f32 div"),
	INIT("dp_add", 16, "f64 add/sub"),
	INIT("dp_max", 32, "f64 min/max"),
	INIT("dp_mul", 16, "f64 mul"),
	INIT("dp_mad", 16, "f64 fma/mad"),
	INIT("dp_div", 260, "f64 div"),
	INIT("sfu", 16, "transcendental"),
	{ "mem", "caches", WEFT_CFG_BOOL, "true", "", 0, 1, NULL,
	  "L1/L2 caches and DRAM; false = global/local accesses hit the banked shared memory "
	  "(the Tesla-like SM has no cache hierarchy)" },
	{ "mem", "l1_bytes", WEFT_CFG_INT, "65536", "B", 128, 1073741824, NULL,
	  "L1 data cache per SM; 64 KB as the SGMF study configured GPGPU-Sim (Voitsechov & "
	  "Etsion, ISCA 2014, Table 1)" },
	{ "mem", "l1_line", WEFT_CFG_INT, "128", "B", 4, 4096, NULL,
	  "L1 line = coalescing segment; 128 B (" GPGPUSIM " gpgpu_cache:dl1)" },
	{ "mem", "l1_assoc", WEFT_CFG_INT, "4", "ways", 1, 64, NULL,
	  "L1 associativity; 4-way (" GPGPUSIM " gpgpu_cache:dl1; Voitsechov & Etsion, ISCA 2014, " \
	  "Table 1)" },
	{ "mem", "l1_banks", WEFT_CFG_INT, "32", "", 1, 1024, NULL,
	  "L1 banks of 4 bytes: a transaction takes ceil(line / (4 x banks)) LD/ST passes; 32 "
	  "(Voitsechov & Etsion, ISCA 2014, Table 1)" },
	{ "mem", "l1_write", WEFT_CFG_ENUM, "through", "", 0, 0, "through|back",
	  "L1 store policy: write-through no-allocate (Fermi global stores, " GPGPUSIM
	  " gpgpu_cache:dl1 policy L) or write-back write-allocate" },
	{ "mem", "l1_mshrs", WEFT_CFG_INT, "64", "", 1, 4096, NULL,
	  "L1 miss-status holding registers (lines in flight per SM); 64 (" GPGPUSIM
	  " gpgpu_cache:dl1 MSHR field S:64:8)" },
	{ "mem", "l1_mshr_merge", WEFT_CFG_INT, "8", "", 0, 255, NULL,
	  "requests one MSHR entry can merge; 8 (" GPGPUSIM " gpgpu_cache:dl1 S:64:8)" },
	WEFT_MEMSYS_L2_DRAM_KEYS,
	{ "mem", "dram_channels", WEFT_CFG_INT, "6", "", 0, 1024, NULL,
	  "DRAM channels, each a FCFS server of dram_gbps / channels; 6 (" GPGPUSIM
	  " gpgpu_n_mem)" },
	{ "mem", "noc_flit_bytes", WEFT_CFG_INT, "40", "B", 1, 4096, NULL,
	  "interconnect flit; an L1-L2 transaction is an 8-B request and a line plus an 8-B "
	  "header in flits; 40 (" GPGPUSIM " icnt_flit_size; GPGPU-Sim READ_PACKET_SIZE 8)" },
	{ NULL, NULL, 0, NULL, NULL, 0, 0, NULL, NULL },
};

static const struct weft_event_def simt_events[SIMT_EV_COUNT] = {
	{ "simt_warp_fetch_decode", WEFT_CAT_FDS, "warp instruction", "instruction cache, decode, "
	  "instruction buffer" },
	{ "simt_warp_schedule", WEFT_CAT_FDS, "warp instruction", "scoreboard + scheduler issue" },
	{ "simt_pipeline", WEFT_CAT_FDS, "thread instruction", "pipeline registers, per active "
	  "lane of an issued warp instruction" },
	{ "simt_rf_read", WEFT_CAT_RF, "32-bit operand x lane", "register read, every lane of the "
	  "warp (the register file reads whole warp rows, as GPUWattch counts them)" },
	{ "simt_rf_write", WEFT_CAT_RF, "32-bit operand x lane", "register written, every lane of "
	  "the warp" },
	{ "simt_operand_nonreg", WEFT_CAT_RF, "operand x lane", "source operand that is not a "
	  "register (immediate, address, special register), every lane of the warp" },
	{ "int_alu", WEFT_CAT_COMP, "thread op", "integer add/logic/shift/compare/mov/cvt, warp ops" },
	{ "int_mul", WEFT_CAT_COMP, "thread op", "32-bit integer multiply (mad counts one)" },
	{ "int_div", WEFT_CAT_COMP, "thread op", "integer div/rem" },
	{ "fp32_add", WEFT_CAT_COMP, "thread op", "f32/f16 add, compare, min/max, cvt with a float side" },
	{ "fp32_mul", WEFT_CAT_COMP, "thread op", "f32/f16 multiply" },
	{ "fp32_fma", WEFT_CAT_COMP, "thread op", "f32/f16 fma/mad" },
	{ "fp64_op", WEFT_CAT_COMP, "thread op", "f64 add/mul/fma/compare" },
	{ "sfu_op", WEFT_CAT_COMP, "thread op", "rcp sqrt rsqrt ex2 lg2 sin cos tanh, float div" },
	{ "shmem_access", WEFT_CAT_SHMEM, "32-bit word", "shared-memory word per active thread "
	  "(no-cache SM: global/local too)" },
	{ "simt_const_access", WEFT_CAT_L1, "warp instruction", "constant-cache read (ld.const, "
	  "ld.param)" },
	{ "l1_access", WEFT_CAT_L1, "128 B transaction", "L1 lookup, hit or miss" },
	{ "l2_access", WEFT_CAT_L2, "128 B transaction", "L2 lookup: L1 misses, write-throughs, atomics" },
	{ "noc_flit", WEFT_CAT_NOC, "flit", "interconnect flit between an SM and the L2" },
	{ "dram_access", WEFT_CAT_DRAM, "32 B", "bytes to/from DRAM / 32" },
};

/* ---- params ---- */

static uint32_t cfg_u(const struct weft_config *cfg, const char *sec, const char *key)
{
	int64_t v = weft_config_int(cfg, sec, key);
	return v < 0 ? 0 : (uint32_t)v;
}

int weft_simt_params_from_config(const struct weft_config *cfg, struct simt_params *sp,
			    struct weft_error *err)
{
	memset(sp, 0, sizeof(*sp));
	sp->num_sm = cfg_u(cfg, "core", "num_sm");
	sp->clock_hz = weft_config_num(cfg, "core", "clock_mhz") * 1e6;
	sp->warp_size = cfg_u(cfg, "core", "warp_size");
	sp->sp_per_sm = cfg_u(cfg, "core", "sp_per_sm");
	sp->schedulers = cfg_u(cfg, "core", "schedulers");
	sp->policy = strcmp(weft_config_str(cfg, "core", "scheduler"), "lrr") ? SIMT_SCHED_GTO
									   : SIMT_SCHED_LRR;
	sp->sfu_units = cfg_u(cfg, "core", "sfu_units");
	sp->max_threads = cfg_u(cfg, "core", "max_threads");
	sp->max_ctas = cfg_u(cfg, "core", "max_ctas");
	sp->registers = cfg_u(cfg, "core", "registers");
	sp->max_regs_per_thread = cfg_u(cfg, "core", "max_regs_per_thread");
	sp->shmem_bytes = cfg_u(cfg, "core", "shmem_bytes");
	sp->shmem_banks = cfg_u(cfg, "core", "shmem_banks");
	sp->warp_serial = weft_config_num(cfg, "core", "warp_serial") != 0;
	sp->pipeline_latency = cfg_u(cfg, "core", "pipeline_latency");
	sp->rf_banks = cfg_u(cfg, "core", "rf_banks");
	sp->rf_read_cycles = cfg_u(cfg, "core", "rf_read_cycles");
	sp->ldst_pass_cycles = cfg_u(cfg, "core", "ldst_pass_cycles");
	sp->shmem_latency = cfg_u(cfg, "core", "shmem_latency");
	sp->l1_latency = cfg_u(cfg, "core", "l1_latency");
	sp->l2_latency = cfg_u(cfg, "core", "l2_latency");
	sp->dram_latency = cfg_u(cfg, "core", "dram_latency");
	for (int c = 0; c < SIMT_LAT_COUNT; c++) {
		sp->lat[c] = cfg_u(cfg, "latency", weft_simt_lat_names[c]);
		sp->init[c] = cfg_u(cfg, "initiation", weft_simt_lat_names[c]);
	}
	sp->area_basis = strcmp(weft_config_str(cfg, "core", "area_basis"), "tesla") ? SIMT_AREA_FERMI
										      : SIMT_AREA_TESLA;
	sp->caches = weft_config_num(cfg, "mem", "caches") != 0;
	sp->l1.size_bytes = cfg_u(cfg, "mem", "l1_bytes");
	sp->l1.line_bytes = cfg_u(cfg, "mem", "l1_line");
	sp->l1.assoc = cfg_u(cfg, "mem", "l1_assoc");
	sp->l1.banks = cfg_u(cfg, "mem", "l1_banks");
	if (weft_cache_write_parse(weft_config_str(cfg, "mem", "l1_write"), &sp->l1.write))
		sp->l1.write = WEFT_CACHE_WRITE_THROUGH;
	sp->l1_mshrs = cfg_u(cfg, "mem", "l1_mshrs");
	sp->l1_mshr_merge = cfg_u(cfg, "mem", "l1_mshr_merge");
	struct weft_memsys ms;
	weft_memsys_read(cfg, &ms);
	sp->l2 = ms.l2;
	sp->l2_clock_hz = ms.l2_clock_hz;
	sp->l2_port_bytes = ms.l2_port_bytes;
	sp->dram_bytes_per_s = ms.dram_bytes_per_s;
	sp->dram_channels = cfg_u(cfg, "mem", "dram_channels");
	sp->noc_flit_bytes = cfg_u(cfg, "mem", "noc_flit_bytes");

	const char *where = cfg->path[0] ? cfg->path : "config";
	if (sp->sp_per_sm < sp->schedulers)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: core.sp_per_sm = %u is less than core.schedulers = %u; each "
				      "scheduler needs at least one lane",
				      where, sp->sp_per_sm, sp->schedulers);
	if (!sp->num_sm || !sp->warp_size || !sp->clock_hz || !sp->max_threads || !sp->max_ctas ||
	    !sp->registers || !sp->max_regs_per_thread || !sp->shmem_banks || !sp->l2_clock_hz ||
	    !sp->l2_port_bytes || !sp->noc_flit_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: a [core]/[mem] value the SIMT model divides by is 0 (is the "
				      "config's [model] name = simt?)", where);
	if (sp->caches && sp->l1.line_bytes != sp->l2.line_bytes)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "%s: mem.l1_line = %u differs from mem.l2_line = %u; the model moves "
				      "whole lines between L1 and L2, so make them equal",
				      where, sp->l1.line_bytes, sp->l2.line_bytes);
	sp->lanes_per_sched = sp->sp_per_sm / sp->schedulers;
	sp->issue_cycles = (sp->warp_size + sp->lanes_per_sched - 1) / sp->lanes_per_sched;
	sp->l1_tx_cycles = (sp->l1.line_bytes + 4 * sp->l1.banks - 1) / (4 * sp->l1.banks) *
			   sp->ldst_pass_cycles;
	sp->l2_service = (double)((sp->l2.line_bytes + sp->l2_port_bytes - 1) / sp->l2_port_bytes) *
			 sp->clock_hz / sp->l2_clock_hz;
	uint32_t ch = sp->dram_channels ? sp->dram_channels : 1;
	sp->dram_line_cycles = sp->dram_bytes_per_s > 0
				       ? sp->l2.line_bytes / (sp->dram_bytes_per_s / ch) * sp->clock_hz
				       : 0;
	sp->noc_flits = (8 + sp->noc_flit_bytes - 1) / sp->noc_flit_bytes +
			(sp->l2.line_bytes + 8 + sp->noc_flit_bytes - 1) / sp->noc_flit_bytes;
	return 0;
}

/* ---- ops ---- */

static void simt_free(void *state)
{
	struct simt_state *s = state;
	if (!s)
		return;
	if (s->sms)
		for (uint32_t i = 0; i < s->sp.num_sm; i++) {
			struct simt_sm *sm = &s->sms[i];
			if (sm->l1.tag)
				weft_cache_free(&sm->l1);
			free(sm->l1x);
			free(sm->mshr);
			free(sm->warps);
			free(sm->regs);
			free(sm->rends);
			for (uint32_t k = 0; k < SIMT_MAX_SCHED; k++) {
				free(sm->sched[k].w);
				free(sm->sched[k].key);
				free(sm->sched[k].code);
			}
			for (uint32_t c = 0; c < SIMT_MAX_SLOTS; c++)
				weft_simt_stream_free(&sm->slot[c].st);
		}
	free(s->sms);
	weft_simt_below_free(&s->below);
	weft_group_prog_free(&s->gp);
	free(s->pc);
	free(s->deps);
	free(s->heap);
	free(s->done_at);
	weft_launch_results_free(s->launches, s->nlaunches);
	free(s);
}

static int simt_init(const struct weft_config *cfg, void **state, struct weft_error *err)
{
	struct simt_state *s = calloc(1, sizeof(*s));
	*state = NULL;
	if (!s)
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the SIMT model");
	int rc = weft_simt_params_from_config(cfg, &s->sp, err);
	if (rc) {
		free(s);
		return rc;
	}
	s->sms = calloc(s->sp.num_sm, sizeof(*s->sms));
	if (!s->sms) {
		uint32_t n = s->sp.num_sm;
		free(s);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for %u SMs", n);
	}
	if (s->sp.caches) {
		const char *which = "l1";
		for (uint32_t i = 0; i < s->sp.num_sm && !rc; i++) {
			struct simt_sm *sm = &s->sms[i];
			rc = weft_cache_init(&sm->l1, &s->sp.l1, err);
			if (rc)
				break;
			sm->l1x = calloc((size_t)sm->l1.nsets * s->sp.l1.assoc, sizeof(*sm->l1x));
			sm->mshr = calloc(s->sp.l1_mshrs, sizeof(*sm->mshr));
			if (!sm->l1x || !sm->mshr)
				rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the L1 models");
		}
		if (!rc) {
			which = "l2";
			rc = weft_simt_below_init(&s->below, &s->sp, err);
		}
		if (rc) {
			weft_error_prefix(err, "%s: [mem] %s_bytes/%s_line/%s_assoc: ",
					  cfg->path[0] ? cfg->path : "config", which, which, which);
			simt_free(s);
			return rc;
		}
	}
	*state = s;
	return 0;
}

/* ---- per launch: begin, every CTA, end (model.h's per-CTA ops) ---- */

static double pct(double part, double n)
{
	return n > 0 ? 100.0 * part / n : 0;
}

static int simt_begin_launch(void *state, struct weft_trace *t, uint32_t launch,
			     const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct simt_state *s = state;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	if (s->leader)
		return 0; /* the leader replays; end_launch copies its results */
	const struct weft_program *p = L->program;
	uint32_t shmem = p->shared_static_bytes + L->dyn_shared;
	s->p = p;
	int rc = weft_simt_occupancy(&s->sp, L->threads_per_cta, shmem, weft_simt_live_regs(p), &s->occ, err);
	if (!rc)
		rc = weft_group_prog_init(&s->gp, p, err);
	if (!rc) {
		free(s->pc);
		free(s->deps);
		s->pc = calloc((size_t)p->ninsts + 1, sizeof(*s->pc));
		s->deps = calloc(18 * ((size_t)p->ninsts + 1), sizeof(*s->deps));
		if (!s->pc || !s->deps)
			rc = weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for kernel %s", p->kernel);
		else
			weft_simt_pc_build(&s->sp, p, s->pc, s->deps);
	}
	if (!rc)
		rc = weft_simt_machine_begin(s, err);
	if (rc) {
		weft_error_prefix(err, "launch %u (kernel %s): ", launch, p->kernel);
		weft_group_prog_free(&s->gp);
		return rc;
	}
	s->cta_seq = 0;
	memset(s->ev, 0, sizeof(s->ev));
	memset(&s->ls, 0, sizeof(s->ls));
	memset(&s->ms, 0, sizeof(s->ms));
	/* a sampled launch keeps when each CTA read finished (sampled_cycles):
	 * one double per CTA read */
	s->ndone = 0;
	s->done_cap = 0;
	uint32_t n = sample ? weft_cta_sample_size(sample, L->nctas) : L->nctas;
	if (n < L->nctas) {
		double *d = realloc(s->done_at, ((size_t)n + 1) * sizeof(*d));
		if (!d)
			return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory for the %u CTAs of a sample", n);
		s->done_at = d;
		s->done_cap = n;
	}
	return 0;
}

static int simt_consume_cta(void *state, const struct weft_cta_trace *c, struct weft_error *err)
{
	struct simt_state *s = state;
	s->cta_seq++;
	return weft_simt_machine_cta(s, c, NULL, err);
}

/* The single-config path's split of a CTA (weft_trace_for_each_cta_prep):
 * its warp streams are built where it was decoded (they depend only on the
 * CTA, the params, the group program and the per-pc facts, none of which
 * change during a launch), then the timed machine takes them in CTA
 * order. */
static int simt_prep_cta(void *state, const struct weft_cta_trace *c, void *out, struct weft_error *err)
{
	const struct simt_state *s = state;
	return weft_simt_stream_build(&s->sp, &s->gp, s->pc, c, out, err);
}

static void simt_prep_release(void *out)
{
	weft_simt_stream_free(out);
}

static int simt_use_cta(void *state, const struct weft_cta_trace *c, void *built, struct weft_error *err)
{
	struct simt_state *s = state;
	s->cta_seq++;
	return weft_simt_machine_cta(s, c, built, err);
}

/* The streams are self-contained: simt_use_cta reads of the CTA only
 * its ids and thread count, so the walk may drop a decoded CTA as soon
 * as its streams are built (trace.h compact). Their estimated size: one
 * record per warp instruction (the trace's count at width 32, scaled to
 * the configured width) and one coalesced segment per memory warp
 * instruction (a coalesced access; scattered ones take more), plus the
 * per-warp offsets. */
static uint64_t simt_prep_bytes(const void *state, const struct weft_trace_launch *L)
{
	const struct simt_state *s = state;
	if (!L->nctas || !s->sp.warp_size)
		return 0;
	double recs = (double)L->warp_insts / L->nctas * 32.0 / s->sp.warp_size;
	double mem = L->thread_insts ? recs * ((double)L->mem_accesses / (double)L->thread_insts) : 0;
	double warps = (double)L->threads_per_cta / s->sp.warp_size + 2;
	double b = recs * sizeof(struct simt_rec) + mem * sizeof(uint64_t) + warps * sizeof(uint32_t);
	return b > 1e15 ? (uint64_t)1e15 : (uint64_t)b;
}

/* keep 0: the timed machine swaps a prepared stream with its CTA slot's
 * (simt_sm.c), so kept buffers would circulate through the slots and all
 * grow to the largest CTA's streams (bfs large, -j 2: peak 8.8 -> 13.5
 * MiB with keep) */
static const struct weft_cta_prep simt_prep = { sizeof(struct simt_stream), simt_prep_cta,
						simt_prep_release, simt_prep_bytes, 0 };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A sampled launch's cycles: the n CTAs read ran as a launch of their
 * own, with the launch's start (every slot filled at once) and its drain
 * (the last CTAs finishing while slots stand empty) once, as the whole
 * launch. Scaling its cycles by N / n would count that start and drain
 * N / n times (fermi-sm, hotspot default, every k-th CTA: its cycles
 * grow by about 1580 a CTA read plus about 1600 once, so a sample of 32
 * of 144 CTAs read 2.4% high). So on one SM, where the sample keeps R
 * CTAs resident and has at least 3R CTAs, the cycles are its own plus
 * the N - n CTAs not read at the steady pace, the time between its R-th
 * and its (n - R)-th CTA to finish over the n - 2R CTAs between them:
 * both ends lie outside the start and the drain. Otherwise N / n: too
 * few CTAs for a steady stretch, or several SMs, whose shared L2 and
 * DRAM queues fill over more of a sample than that stretch leaves out
 * (gtx480, nn, 90 resident, 3 seeds: with 300 CTAs read the stretch's
 * pace put the launch 20% low where N / n is 8% low, with 800 5% against
 * 2.7%). */
static double sampled_cycles(const struct simt_state *rp, uint32_t N)
{
	uint32_t n = rp->cta_seq;
	if (!n || n >= N)
		return rp->launch_cycles;
	double f = (double)N / n;
	uint64_t R = (uint64_t)rp->occ.ctas * rp->sp.num_sm;
	if (rp->ndone != n || !R || n < 3 * R || rp->sp.num_sm != 1)
		return rp->launch_cycles * f;
	const double *t = rp->done_at; /* sorted (simt_end_launch) */
	double pace = (t[n - R - 1] - t[R - 1]) / (double)(n - 2 * R);
	return rp->launch_cycles + (double)(N - n) * pace;
}

/* The launch's result: cycles, CPI stack, events and statistics, from the
 * replay in rp (s itself, or the leader it follows); written to s. */
static int simt_launch_result(struct simt_state *s, const struct simt_state *rp,
			      const struct weft_trace_launch *L, uint32_t launch, struct weft_error *err)
{
	const struct simt_params *sp = &s->sp;
	/* scale a sample up to the whole launch: its work by N / n, its cycles
	 * (and the CPI stack that splits them) by sampled_cycles */
	double f = rp->cta_seq ? (double)L->nctas / rp->cta_seq : 1;
	double cycles = sampled_cycles(rp, L->nctas);
	double fc = rp->launch_cycles > 0 ? cycles / rp->launch_cycles : f;
	double nsched = (double)sp->num_sm * sp->schedulers;
	struct weft_launch_result *r;
	int rc = weft_launch_result_push(&s->launches, &s->nlaunches, &s->launches_cap, SIMT_EV_COUNT,
					 &r, err);
	if (rc)
		return rc;
	r->launch = launch;
	snprintf(r->kernel, sizeof(r->kernel), "%s", L->program->kernel ? L->program->kernel : "?");
	r->cycles = cycles;
	r->thread_insts = (uint64_t)llround(rp->ls.thread_insts * f);
	for (int i = 0; i < SIMT_CPI_COUNT; i++)
		weft_cpi_add(&r->cpi, weft_simt_cpi_names[i], rp->cpi[i] / nsched * fc);
	snprintf(r->limiter, sizeof(r->limiter), "%s", weft_cpi_largest(&r->cpi));
	for (int i = 0; i < SIMT_EV_COUNT; i++) {
		r->events[i] = rp->ev[i] * f;
		s->total_ev[i] += r->events[i];
	}

	/* throughput lower bounds: what each resource alone would need */
	double b[SIMT_B_COUNT] = { 0 };
	b[SIMT_B_ISSUE] = rp->ls.busy[SIMT_B_ISSUE] / nsched;
	b[SIMT_B_SFU] = rp->ls.busy[SIMT_B_SFU] / sp->num_sm;
	b[SIMT_B_LDST] = rp->ls.busy[SIMT_B_LDST] / sp->num_sm;
	if (sp->caches) {
		for (uint32_t i = 0; i < sp->l2.banks; i++)
			if (rp->below.bank_busy[i] > b[SIMT_B_L2])
				b[SIMT_B_L2] = rp->below.bank_busy[i];
		for (uint32_t i = 0; i < (sp->dram_channels ? sp->dram_channels : 1); i++)
			if (rp->below.chan_busy[i] > b[SIMT_B_DRAM])
				b[SIMT_B_DRAM] = rp->below.chan_busy[i];
	}
	char key[48];
	for (int i = 0; i < SIMT_B_COUNT; i++) {
		snprintf(key, sizeof(key), "bound_%s", weft_simt_bound_names[i]);
		weft_stat_add(r->stats, &r->nstats, key, b[i] * f, "cycles");
	}
	const struct simt_launch_stats *ls = &rp->ls;
	double simd = ls->warp_insts > 0 ? ls->thread_insts / (ls->warp_insts * sp->warp_size) : 0;
	weft_stat_add(r->stats, &r->nstats, "warp_insts", ls->warp_insts * f, "");
	weft_stat_add(r->stats, &r->nstats, "issue_utilisation",
		      pct(ls->busy[SIMT_B_ISSUE], rp->launch_cycles * nsched), "%");
	weft_stat_add(r->stats, &r->nstats, "simd_efficiency", 100.0 * simd, "%");
	weft_stat_add(r->stats, &r->nstats, "divergence_overhead", simd > 0 ? 100.0 * (1 / simd - 1) : 0,
		      "%");
	weft_stat_add(r->stats, &r->nstats, "regs_per_thread", rp->occ.regs_per_thread, "");
	weft_stat_add(r->stats, &r->nstats, "resident_ctas", rp->occ.ctas, "");
	weft_stat_add(r->stats, &r->nstats, "resident_warps", rp->occ.warps, "");
	snprintf(key, sizeof(key), "occupancy_limited_by_%s", weft_simt_occ_names[rp->occ.limit]);
	weft_stat_add(r->stats, &r->nstats, key, 1, "");
	weft_stat_add(r->stats, &r->nstats, "l1_tx_per_mem_inst",
		      ls->mem_insts > 0 ? rp->ms.l1_tx / ls->mem_insts : 0, "");
	weft_stat_add(r->stats, &r->nstats, "shmem_passes_per_access",
		      ls->shmem_accesses > 0 ? ls->shmem_passes / ls->shmem_accesses : 0, "");
	if (sp->caches) {
		weft_stat_add(r->stats, &r->nstats, "l1_read_hit_rate",
			      pct(rp->ms.l1_read_hits, rp->ms.l1_reads), "%");
		weft_stat_add(r->stats, &r->nstats, "l1_mshr_merges", rp->ms.l1_merges * f, "");
		weft_stat_add(r->stats, &r->nstats, "l2_hit_rate",
			      pct(rp->ms.l2_read_hits + rp->ms.l2_write_hits,
				  rp->ms.l2_reads + rp->ms.l2_writes),
			      "%");
		weft_stat_add(r->stats, &r->nstats, "dram_bytes", rp->below.dram_bytes * f, "B");
		weft_stat_add(r->stats, &r->nstats, "load_latency_avg",
			      rp->ms.loads > 0 ? rp->ms.load_lat_sum / rp->ms.loads : 0, "cycles");
		weft_stat_add(r->stats, &r->nstats, "mshr_full_waits", rp->ms.mshr_waits * f, "");
	}
	weft_stat_add(r->stats, &r->nstats, "barriers", ls->barriers * f, "");
	weft_stat_add(r->stats, &r->nstats, "ctas_read", rp->cta_seq, "");
	if (rp->cta_seq < L->nctas) /* a sample: its CTAs' cycles, as a launch of their own */
		weft_stat_add(r->stats, &r->nstats, "cycles_read", rp->launch_cycles, "cycles");
	s->total_cycles += r->cycles;
	s->total_insts += r->thread_insts;
	return 0;
}

static int simt_end_launch(void *state, struct weft_trace *t, uint32_t launch,
			   const struct weft_cta_sample *sample, struct weft_error *err)
{
	(void)sample;
	struct simt_state *s = state;
	const struct simt_params *sp = &s->sp;
	const struct weft_trace_launch *L = weft_trace_launch(t, launch);
	if (!L)
		return weft_error_set(err, WEFT_ERR_INPUT, "trace has no launch %u", launch);
	if (s->leader)
		return simt_launch_result(s, s->leader, L, launch, err);
	int rc = weft_simt_machine_finish(s, &s->launch_cycles, err);
	weft_group_prog_free(&s->gp);
	if (rc)
		return rc;
	if (s->ndone) /* in time order, for sampled_cycles (followers read them) */
		qsort(s->done_at, s->ndone, sizeof(*s->done_at), cmp_double);
	if (sp->caches) {
		/* A launch's output reaches DRAM: the L2's dirty lines are written
		 * back at its end and stay cached, clean (the next launch may
		 * still hit). */
		if (sp->l2.write == WEFT_CACHE_WRITE_BACK)
			s->below.dram_bytes +=
				(double)weft_cache_clean(&s->below.l2) * sp->l2.line_bytes;
		if (sp->l1.write == WEFT_CACHE_WRITE_BACK)
			for (uint32_t i = 0; i < sp->num_sm; i++) {
				double n = (double)weft_cache_clean(&s->sms[i].l1);
				s->below.ev_l2 += n; /* into the L2 (already clean there: no DRAM) */
				s->below.ev_noc += n * sp->noc_flits;
				s->below.dram_bytes += n * sp->l2.line_bytes;
			}
		s->ev[SIMT_EV_L2] = s->below.ev_l2;
		s->ev[SIMT_EV_NOC] = s->below.ev_noc;
		s->ev[SIMT_EV_DRAM] = s->below.dram_bytes / 32.0;
	}
	return simt_launch_result(s, s, L, launch, err);
}

/* Follows leader when the two configs differ only in what the replay
 * does not read: core.area_basis (and every [tech] key, which the model
 * never sees). Every other parameter reaches the simulation; when only
 * timing parameters differ, the state still takes the leader's warp
 * streams (simt_sm.c copies them per CTA). */
static int simt_follow(void *state, void *leader)
{
	struct simt_state *s = state, *ld = leader;
	struct simt_params a, b;
	memcpy(&a, &s->sp, sizeof(a));
	memcpy(&b, &ld->sp, sizeof(b));
	a.area_basis = b.area_basis = SIMT_AREA_FERMI;
	if (ld->leader)
		return 0;
	if (memcmp(&a, &b, sizeof(a)) != 0) {
		/* the timing differs, but the warp streams may not: copy those
		 * of the first such state (its source's, if it copies too) */
		if (!s->stream_src && weft_simt_stream_key_equal(&s->sp, &ld->sp))
			s->stream_src = ld->stream_src ? ld->stream_src : ld;
		return 0;
	}
	s->leader = ld;
	return 1;
}

/* One launch through the three ops above (the single-config path). */
static int simt_consume(void *state, struct weft_trace *t, uint32_t launch,
			const struct weft_cta_sample *sample, struct weft_error *err)
{
	struct simt_state *s = state;
	int rc = simt_begin_launch(s, t, launch, sample, err);
	if (rc < 0)
		return rc;
	rc = weft_trace_for_each_cta_prep(t, launch, sample, 0, &simt_prep, simt_use_cta, s, err);
	if (rc) {
		weft_group_prog_free(&s->gp);
		const struct weft_trace_launch *L = weft_trace_launch(t, launch);
		weft_error_prefix(err, "SIMT model, launch %u (kernel %s): ", launch, L->program->kernel);
		return rc;
	}
	return simt_end_launch(s, t, launch, sample, err);
}

static int simt_components(void *state, struct weft_component *out, uint32_t max, uint32_t *n,
			   struct weft_error *err)
{
	const struct simt_params *sp = &((struct simt_state *)state)->sp;
	struct weft_component c[3];
	if (sp->area_basis == SIMT_AREA_TESLA) {
		weft_component_set(&c[0], "tesla_sm_fixed", sp->num_sm, "num_sm");
		weft_component_set(&c[1], "tesla_sp", (double)sp->num_sm * sp->sp_per_sm,
				   "num_sm x sp_per_sm = %u x %u", sp->num_sm, sp->sp_per_sm);
		weft_component_set(&c[2], "tesla_sp_quadratic",
				   (double)sp->num_sm * sp->sp_per_sm * sp->sp_per_sm,
				   "num_sm x sp_per_sm^2 (coalescing + bank crossbar, Lies 2019)");
	} else {
		weft_component_set(&c[0], "fermi_sm", sp->num_sm, "num_sm");
		weft_component_set(&c[1], "fermi_l2_kib", sp->caches ? sp->l2.size_bytes / 1024.0 : 0,
				   "mem.l2_bytes / 1024");
		weft_component_set(&c[2], "fermi_mem_channel", sp->caches ? sp->dram_channels : 0,
				   "mem.dram_channels");
	}
	if (max < 3)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "room for %u components, need 3", max);
	memcpy(out, c, sizeof(c));
	*n = 3;
	return 0;
}

static int simt_finish(void *state, struct weft_model_result *res, struct weft_error *err)
{
	struct simt_state *s = state;
	int rc = weft_model_result_take(res, s->sp.clock_hz, s->total_cycles, s->total_insts, s->total_ev,
					SIMT_EV_COUNT, &s->launches, &s->nlaunches, &s->launches_cap, err);
	if (rc)
		return rc;
	rc = simt_components(s, res->components, WEFT_MAX_COMPONENTS, &res->ncomponents, err);
	if (rc)
		return rc;
	weft_stat_add(res->stats, &res->nstats, "num_sm", s->sp.num_sm, "");
	weft_stat_add(res->stats, &res->nstats, "issue_cycles_per_warp_inst", s->sp.issue_cycles, "cycles");
	return 0;
}

const struct weft_model weft_model_simt = {
	.name = "simt",
	.description = "SIMT streaming multiprocessor (Fermi GTX480, Tesla-like SM): warps under "
		       "IPDOM, GTO schedulers, scoreboard, L1 MSHRs, L2/DRAM queues, CPI stack",
	.keys = simt_keys,
	.events = simt_events,
	.nevents = SIMT_EV_COUNT,
	.init = simt_init,
	.consume_launch = simt_consume,
	.finish = simt_finish,
	.free = simt_free,
	.components = simt_components,
	.begin_launch = simt_begin_launch,
	.consume_cta = simt_consume_cta,
	.end_launch = simt_end_launch,
	.follow = simt_follow,
};
