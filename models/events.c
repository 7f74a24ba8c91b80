/*
 * events.c - names of the energy categories (events.h). The names are fixed
 * across models (docs/energy.md, docs/estimate.md) so reports line up.
 * Also the functional-unit kind of an instruction (weft_fu_op_of), shared
 * by the models so that their compute events classify alike.
 */
#include "events.h"

#include <string.h>

#include "trace/ptx/program.h"

static const char *const cat_names[WEFT_CAT_COUNT] = {
	"fds", "rf", "comp", "buffers", "noc", "shmem", "l1", "l2", "dram", "config", "static",
};

const char *weft_energy_cat_name(enum weft_energy_cat c)
{
	if ((unsigned)c >= WEFT_CAT_COUNT)
		return "?";
	return cat_names[c];
}

int weft_energy_cat_parse(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < WEFT_CAT_COUNT; i++)
		if (strcmp(name, cat_names[i]) == 0)
			return i;
	return -1;
}

enum weft_fu_op weft_fu_op_of(const struct weft_inst *in, const struct weft_inst_info *ii)
{
	enum weft_ptx_type t = (enum weft_ptx_type)in->type;
	int f64 = t == WEFT_T_F64 || in->type2 == WEFT_T_F64;
	switch (ii->cls) {
	case WEFT_IC_INT:
		switch (in->op) {
		case WEFT_OP_MUL: case WEFT_OP_MAD: case WEFT_OP_MUL24: case WEFT_OP_MAD24:
		case WEFT_OP_SAD: case WEFT_OP_MADC: case WEFT_OP_DP4A: case WEFT_OP_DP2A:
			return WEFT_FU_INT_MUL;
		default:
			return WEFT_FU_INT_ALU;
		}
	case WEFT_IC_FP:
		if (f64)
			return WEFT_FU_FP64;
		if (in->op == WEFT_OP_FMA || in->op == WEFT_OP_MAD)
			return WEFT_FU_FP32_FMA;
		if (in->op == WEFT_OP_MUL)
			return WEFT_FU_FP32_MUL;
		return WEFT_FU_FP32_ADD;
	case WEFT_IC_SFU:
		if ((in->op == WEFT_OP_DIV || in->op == WEFT_OP_REM) && !weft_ptx_type_is_float(t))
			return WEFT_FU_INT_DIV;
		return WEFT_FU_SFU;
	case WEFT_IC_WARP:
		return WEFT_FU_INT_ALU;
	default:
		return WEFT_FU_NONE;
	}
}
