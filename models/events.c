/*
 * events.c - names of the energy categories (events.h). The names are fixed
 * across models (models.md "Reporting conventions") so reports line up.
 */
#include "events.h"

#include <string.h>

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
