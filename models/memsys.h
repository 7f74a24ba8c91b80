/*
 * memsys.h - the GTX480 L2 and DRAM that the SIMT SM and the SGMF/dMT fabric
 * share (the SGMF core keeps the Fermi baseline's memory system, L1 write
 * policy aside: Voitsechov & Etsion, ISCA 2014): its config keys, defined
 * once with their sources (the GTX480 configuration of GPGPU-Sim the SGMF
 * and dMT-CGRA studies simulated, WEFT_GPGPUSIM_GTX480), and reading
 * them from a validated config. Each model adds its own L1 keys (the
 * defaults differ: Fermi L1 is write-through, the fabric's write-back).
 */
#ifndef WEFT_MEMSYS_H
#define WEFT_MEMSYS_H

#include <stdint.h>

#include "cache.h"
#include "config.h"

/* The simulator configuration the Fermi latencies and L2 details come from. */
#define WEFT_GPGPUSIM_GTX480 "accel-sim/gpgpu-sim configs/tested-cfgs/SM2_GTX480/gpgpusim.config"

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

#endif
