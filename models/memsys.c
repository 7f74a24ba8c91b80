/*
 * memsys.c - the L2/DRAM level the SIMT and fabric models share
 * (memsys.h): reading its GTX480 keys, and one L2 access with the DRAM
 * traffic it causes. Timing that traffic (SIMT) or counting it (fabric)
 * is each model's own.
 */
#include "memsys.h"

#include <string.h>

void weft_memsys_read(const struct weft_config *cfg, struct weft_memsys *m)
{
	memset(m, 0, sizeof(*m));
	m->l2.size_bytes = (uint64_t)weft_config_int(cfg, "mem", "l2_bytes");
	m->l2.line_bytes = (uint32_t)weft_config_int(cfg, "mem", "l2_line");
	m->l2.assoc = (uint32_t)weft_config_int(cfg, "mem", "l2_assoc");
	m->l2.banks = (uint32_t)weft_config_int(cfg, "mem", "l2_banks");
	if (weft_cache_write_parse(weft_config_str(cfg, "mem", "l2_write"), &m->l2.write))
		m->l2.write = WEFT_CACHE_WRITE_BACK;
	m->l2_clock_hz = weft_config_num(cfg, "mem", "l2_clock_mhz") * 1e6;
	m->l2_port_bytes = (uint32_t)weft_config_int(cfg, "mem", "l2_port_bytes");
	m->dram_bytes_per_s = weft_config_num(cfg, "mem", "dram_gbps") * 1e9;
}

void weft_memsys_l2_access(struct weft_cache *l2, uint64_t addr, int is_write,
			   struct weft_memsys_l2_out *o)
{
	uint64_t victim = 0;
	unsigned r = weft_cache_access(l2, addr, is_write, &victim);
	o->r = r;
	o->slot = l2->last_slot;
	o->line = addr >> l2->line_shift;
	o->wb_line = victim >> l2->line_shift;
	o->hit = (r & WEFT_CACHE_HIT) != 0;
	o->dram_wb = (r & WEFT_CACHE_WRITEBACK) != 0;
	o->dram_fetch = (r & WEFT_CACHE_FILL) != 0;
	o->dram_through = (r & WEFT_CACHE_THROUGH) != 0;
}
