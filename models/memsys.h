/*
 * memsys.h - the GTX480 L2 and DRAM that the SIMT SM and the SGMF/dMT fabric
 * share (the SGMF core keeps the Fermi baseline's memory system, L1 write
 * policy aside: Voitsechov & Etsion, ISCA 2014): its config keys, defined
 * once with their sources (the GTX480 configuration of GPGPU-Sim the SGMF
 * and dMT-CGRA studies simulated, WEFT_GPGPUSIM_GTX480), and reading
 * them from a validated config. Each model adds its own L1 keys (the
 * defaults differ: Fermi L1 is write-through, the fabric's write-back).
 *
 * Also one access to that L2 and the DRAM traffic it causes
 * (weft_memsys_l2_access), the mechanism both models share: the L2 tag
 * lookup, a dirty victim written back to DRAM, the line fetched from DRAM
 * on a miss, and the DRAM bytes those move. What each model does with the
 * outcome differs on purpose, and stays in the model:
 *   - the SIMT model (models/simt/simt_memsys.c) times it: every access
 *     queues at its L2 bank and every DRAM line at its channel
 *     (first-come first-served reservation times), an atomic dirties its
 *     L2 line, and a later access to a line still being filled waits for
 *     the fill; a write-through L2's writes (dram_through) go to DRAM too;
 *   - the fabric (models/dataflow/fabric_replay.c) counts events: its
 *     access returns the latency of the level that served it and the
 *     launch's DRAM bytes feed a bandwidth bound (fabric.c (7)), with no
 *     per-bank or per-channel queue. It counts the victim and the fetched
 *     line, not dram_through: the fabric's DRAM bytes leave out the writes
 *     a write-through L2 passes on (no shipped config has one; every
 *     config in configs/ says l2_write = back).
 */
#ifndef WEFT_MEMSYS_H
#define WEFT_MEMSYS_H

#include <stdint.h>

#include "cache.h"
#include "config.h"

/* The simulator configuration the Fermi latencies and L2 details come from. */
#define WEFT_GPGPUSIM_GTX480 "GPGPU-Sim 4.0 configs/tested-cfgs/SM2_GTX480/gpgpusim.config"

/* Schema rows for [mem] L2 and DRAM bandwidth; put them in a model's key
 * table. */
#define WEFT_MEMSYS_L2_DRAM_KEYS \
	{ "mem", "l2_bytes", WEFT_CFG_INT, "786432", "B", 128, 1073741824, NULL, \
	  "shared L2; 768 KiB = 12 sub-partitions x 64 KiB (" WEFT_GPGPUSIM_GTX480 " dl2)" }, \
	{ "mem", "l2_line", WEFT_CFG_INT, "128", "B", 4, 4096, NULL, \
	  "L2 line; 128 B (" WEFT_GPGPUSIM_GTX480 " dl2)" }, \
	{ "mem", "l2_assoc", WEFT_CFG_INT, "16", "ways", 1, 64, NULL, \
	  "L2 associativity; 16 = a channel's 2 sub-partitions x 8-way (" WEFT_GPGPUSIM_GTX480 \
	  " dl2)" }, \
	{ "mem", "l2_banks", WEFT_CFG_INT, "6", "", 1, 1024, NULL, \
	  "L2 banks (one per memory channel); 6 (" WEFT_GPGPUSIM_GTX480 " gpgpu_n_mem)" }, \
	{ "mem", "l2_write", WEFT_CFG_ENUM, "back", "", 0, 0, "through|back", \
	  "L2 write policy; write-back (" WEFT_GPGPUSIM_GTX480 " dl2 'B')" }, \
	{ "mem", "l2_clock_mhz", WEFT_CFG_DOUBLE, "700", "MHz", 1, 10000, NULL, \
	  "L2 clock; 0.7 GHz (" WEFT_GPGPUSIM_GTX480 " gpgpu_clock_domains)" }, \
	{ "mem", "l2_port_bytes", WEFT_CFG_INT, "64", "B", 1, 4096, NULL, \
	  "bytes per L2 clock per bank; 64 = 2 sub-partitions per channel x 32-B data port " \
	  "(" WEFT_GPGPUSIM_GTX480 ": n_sub_partition_per_mchannel 2, dl2 data port 32)" }, \
	{ "mem", "dram_gbps", WEFT_CFG_DOUBLE, "177.4", "GB/s", 0, 100000, NULL, \
	  "DRAM bandwidth; GTX480 177.4 GB/s (NVIDIA: 384-bit GDDR5 at 924 MHz x 4 = 3696 MT/s; " \
	  "924 MHz = the DRAM clock of " WEFT_GPGPUSIM_GTX480 "); 0 = no DRAM bound" }

struct weft_memsys {
	struct weft_cache_geom l2;
	double l2_clock_hz;
	uint32_t l2_port_bytes;   /* bytes per L2 clock per bank */
	double dram_bytes_per_s;  /* 0 = no DRAM bandwidth bound */
};

/* Reads the WEFT_MEMSYS_L2_DRAM_KEYS of a config validated against a schema
 * that holds them. */
void weft_memsys_read(const struct weft_config *cfg, struct weft_memsys *m);

/* The outcome of one L2 access (weft_memsys_l2_access). */
struct weft_memsys_l2_out {
	unsigned r;          /* the cache model's WEFT_CACHE_* bits */
	uint64_t slot;       /* the line's tag slot, WEFT_CACHE_NO_SLOT when not held */
	uint64_t line;       /* the accessed line number (address >> line shift) */
	uint64_t wb_line;    /* the dirty victim's line number when dram_wb */
	uint8_t hit;         /* served by the L2 */
	uint8_t dram_wb;     /* a dirty victim goes to DRAM */
	uint8_t dram_fetch;  /* the line comes from DRAM (a miss that allocates with a fetch) */
	uint8_t dram_through; /* the write goes on to DRAM (write-through L2) */
};

/* One read (is_write 0) or write of the line holding addr at the L2 l2:
 * the tag lookup (l2's statistics count it) and the DRAM traffic it
 * causes, as flags in *o. */
void weft_memsys_l2_access(struct weft_cache *l2, uint64_t addr, int is_write,
			   struct weft_memsys_l2_out *o);

/* Bytes the access moves between the L2 and DRAM counting the victim and
 * the fetched line, plus the written-through line when through is set
 * (the SIMT model sets it, the fabric does not: memsys.h top). */
static inline double weft_memsys_dram_bytes(const struct weft_memsys_l2_out *o, uint32_t line_bytes,
					    int through)
{
	return (double)(o->dram_wb + o->dram_fetch + (through ? o->dram_through : 0)) * line_bytes;
}

#endif
