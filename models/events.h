/*
 * events.h - activity events that models count and energy/ turns into
 * joules, and the energy categories reports break energy down by.
 *
 * A model declares the events it counts (struct weft_event_def); each event
 * has a name that is a row key of the energy table (data/energy/NAME.csv: energy
 * per event at a technology node, with its source) and one category. The
 * category names are fixed across models (models.md "Reporting
 * conventions") so that reports line up.
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

#endif
