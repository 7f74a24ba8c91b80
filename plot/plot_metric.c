/*
 * plot_metric.c - the report figures a plot knows, their labels and units
 * (plot_metric.h), and a figure's value by key.
 */
#include "plot_metric.h"

#include <math.h>
#include <string.h>

const char *const weft_plot_energy_cats[WEFT_PLOT_NCATS] = {
	"fds", "rf", "comp", "buffers", "noc", "shmem", "l1", "l2", "dram", "config", "static",
};
const char *const weft_plot_energy_cat_labels[WEFT_PLOT_NCATS] = {
	"fetch/decode/schedule", "register files", "functional units", "buffers", "interconnect",
	"shared memory", "L1", "L2", "DRAM", "configuration", "static",
};

const char *const weft_plot_energy_cat_short[WEFT_PLOT_NCATS] = {
	"FDS", "RF", "FU", "buffers", "NoC", "shmem", "L1", "L2", "DRAM", "config", "static",
};

/* In the order of the report's figures (docs/estimate.md "CSV"). */
static const struct weft_plot_metric metrics[] = {
	{ "cycles", "cycles", "cycles", 0, 0, 0 },
	{ "time_s", "time", "s", 1, 0, 0 },
	{ "thread_insts", "thread instructions", "", 0, 0, 0 },
	{ "ipc", "IPC", "thread insts/cycle", 0, 0, 0 },
	{ "energy_fds_j", "fetch/decode/schedule energy", "J", 1, 0, 0 },
	{ "energy_rf_j", "register files energy", "J", 1, 0, 0 },
	{ "energy_comp_j", "functional units energy", "J", 1, 0, 0 },
	{ "energy_buffers_j", "buffers energy", "J", 1, 0, 0 },
	{ "energy_noc_j", "interconnect energy", "J", 1, 0, 0 },
	{ "energy_shmem_j", "shared memory energy", "J", 1, 0, 0 },
	{ "energy_l1_j", "L1 energy", "J", 1, 0, 0 },
	{ "energy_l2_j", "L2 energy", "J", 1, 0, 0 },
	{ "energy_dram_j", "DRAM energy", "J", 1, 0, 0 },
	{ "energy_config_j", "configuration energy", "J", 1, 0, 0 },
	{ "energy_static_j", "static energy", "J", 1, 0, 0 },
	{ "energy_total_j", "energy", "J", 1, 0, 0 },
	{ "energy_fds_share", "fetch/decode/schedule energy share", "%", 0, 0, 1 },
	{ "energy_rf_share", "register files energy share", "%", 0, 0, 1 },
	{ "energy_comp_share", "functional units energy share", "%", 0, 0, 1 },
	{ "energy_buffers_share", "buffers energy share", "%", 0, 0, 1 },
	{ "energy_noc_share", "interconnect energy share", "%", 0, 0, 1 },
	{ "energy_shmem_share", "shared memory energy share", "%", 0, 0, 1 },
	{ "energy_l1_share", "L1 energy share", "%", 0, 0, 1 },
	{ "energy_l2_share", "L2 energy share", "%", 0, 0, 1 },
	{ "energy_dram_share", "DRAM energy share", "%", 0, 0, 1 },
	{ "energy_config_share", "configuration energy share", "%", 0, 0, 1 },
	{ "energy_static_share", "static energy share", "%", 0, 0, 1 },
	{ "power_w", "average power", "W", 1, 0, 0 },
	{ "area_mm2", "area", "mm2", 0, 0, 0 },
	{ "insts_per_j", "energy efficiency", "insts/J", 1, 0, 0 },
	{ "insts_per_s_per_mm2", "performance per area", "insts/s/mm2", 1, 0, 0 },
	{ "speedup", "speedup", "x", 0, 1, 0 },
	{ "insts_per_j_ratio", "energy efficiency ratio (insts/J)", "x", 0, 1, 0 },
	{ "energy_ratio", "energy ratio", "x", 0, 1, 0 },
	{ "perf_per_area_ratio", "performance per area ratio", "x", 0, 1, 0 },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

const char *weft_plot_metric_key(size_t i)
{
	return i < NMETRICS ? metrics[i].key : NULL;
}

const struct weft_plot_metric *weft_plot_metric_find(const char *key)
{
	for (size_t i = 0; i < NMETRICS; i++)
		if (strcmp(metrics[i].key, key) == 0)
			return &metrics[i];
	return NULL;
}

int weft_plot_fig_value(const struct weft_plot_fig *f, const char *key, double *v,
			const char **unit)
{
	for (uint32_t i = 0; i < f->nnums; i++)
		if (strcmp(f->nums[i].key, key) == 0) {
			*v = f->nums[i].value;
			if (unit)
				*unit = NULL;
			return 0;
		}
	for (uint32_t i = 0; i < f->nstats; i++)
		if (strcmp(f->stats[i].key, key) == 0) {
			*v = f->stats[i].value;
			if (unit)
				*unit = f->stats[i].unit;
			return 0;
		}
	return -1;
}

double weft_plot_si(double maxabs, const char **prefix)
{
	static const char *const p[] = { "p", "n", "u", "m", "", "k", "M", "G", "T", "P" };
	if (!isfinite(maxabs) || maxabs <= 0) {
		*prefix = "";
		return 1;
	}
	int e3 = (int)floor(log10(maxabs) / 3);
	if (e3 < -4)
		e3 = -4;
	if (e3 > 5)
		e3 = 5;
	*prefix = p[e3 + 4];
	return pow(10, -3 * e3);
}
