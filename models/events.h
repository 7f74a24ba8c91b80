/*
 * events.h - activity events that models count and energy/ turns into
 * joules, the energy categories reports break energy down by, and the
 * functional-unit kind of an instruction that every model's compute
 * events follow.
 *
 * A model declares the events it counts (struct weft_event_def); each event
 * has a name that is a row key of the energy table (data/energy/NAME.csv: energy
 * per event at a technology node, with its source) and one category. The
 * category names are fixed across models (docs/energy.md, docs/estimate.md
 * "What is computed") so that reports line up.
 */
#ifndef WEFT_EVENTS_H
#define WEFT_EVENTS_H

enum weft_energy_cat {
	WEFT_CAT_FDS = 0, /* fetch, decode, schedule */
	WEFT_CAT_RF,      /* register files, vector register files */
	WEFT_CAT_COMP,    /* functional units */
	WEFT_CAT_BUFFERS, /* token/reservation buffers, queues, PVFB */
	WEFT_CAT_NOC,     /* fabric interconnect, crossbars */
	WEFT_CAT_SHMEM,
	WEFT_CAT_L1,
	WEFT_CAT_L2,
	WEFT_CAT_DRAM,
	WEFT_CAT_CONFIG,  /* fabric configuration */
	WEFT_CAT_STATIC,  /* static power x time */
	WEFT_CAT_COUNT
};

/* "fds", "rf", "comp", "buffers", "noc", "shmem", "l1", "l2", "dram",
 * "config", "static". */
const char *weft_energy_cat_name(enum weft_energy_cat c);
/* -1 when unknown. */
int weft_energy_cat_parse(const char *name);

struct weft_event_def {
	const char *name;     /* energy table key, e.g. "simt_warp_fetch_decode" */
	enum weft_energy_cat cat;
	const char *unit;     /* what one event is: "warp instruction", "32-bit operand", "128 B transaction" */
	const char *doc;
};

struct weft_inst;
struct weft_inst_info;

/* Which functional unit a thread instruction uses, for the models' compute
 * events (each model maps it to its own event index with a small table, so
 * that the SIMT and fabric models count the same instruction alike). */
enum weft_fu_op {
	WEFT_FU_INT_ALU = 0, /* integer ALU, logic, shifts, int compares, mov; warp ops */
	WEFT_FU_INT_MUL,     /* mul mad mul24 mad24 sad madc dp4a dp2a on integers */
	WEFT_FU_INT_DIV,     /* div/rem on integers */
	WEFT_FU_FP32_ADD,    /* float add/sub, compares, min/max, cvt with a float side */
	WEFT_FU_FP32_MUL,
	WEFT_FU_FP32_FMA,    /* fma, mad on floats */
	WEFT_FU_FP64,        /* any FP-class op with an f64 side */
	WEFT_FU_SFU,         /* rcp sqrt rsqrt ex2 lg2 sin cos tanh, float div (f64 too) */
	WEFT_FU_NONE,        /* not a functional-unit op: loads, stores, atomics,
				branches, barriers, other */
	WEFT_FU_COUNT
};

/* The functional-unit kind of `in` (its decoded class in ii->cls), with
 * the energy-status agreement's rules: f16 counts as fp32 (only an f64
 * type or second type makes an FP op fp64); compares/min/max/cvt with a
 * float side as fp32_add (they are in the FP class); f64 div/sqrt as
 * sfu_op (SFU class, any float type); integer div/rem as int_div; warp
 * ops (shfl vote match redux activemask) as int_alu. */
enum weft_fu_op weft_fu_op_of(const struct weft_inst *in, const struct weft_inst_info *ii);

#endif
