/* memsys.c - reading the shared GTX480 L2/DRAM keys (memsys.h). */
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
