/*
 * rt_printf.c - device-side printf: the emulator formats each call
 * (trace/emu/emu_printf.c) and hands the text to rt_print, which keeps a
 * launch's text until the launch ends; rt_launch.c then writes it onto the
 * program's stdout (rt_print_flush), as CUDA prints a launch's output at
 * the next synchronisation. A launch keeps at most cudaLimitPrintfFifoSize
 * bytes (cudaDeviceSetLimit; 1 MiB by default, as CUDA's); the rest is
 * dropped, as a GPU drops what its FIFO cannot hold, and one line on
 * stderr says how much.
 */
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rt_print(void *user, const char *text, size_t len)
{
	(void)user;
	size_t fifo = rt.limits[WCU_LIMIT_PRINTF_FIFO_SIZE];
	if (len > fifo || rt.printlen > fifo - len) {
		rt.print_dropped += len;
		return;
	}
	if (rt.printlen + len > rt.printcap) {
		size_t nc = rt.printcap ? rt.printcap : 4096;
		while (nc < rt.printlen + len)
			nc *= 2;
		char *q = realloc(rt.printbuf, nc);
		if (!q) {
			rt.print_dropped += len;
			return;
		}
		rt.printbuf = q;
		rt.printcap = nc;
	}
	memcpy(rt.printbuf + rt.printlen, text, len);
	rt.printlen += len;
}

void rt_print_flush(const char *kernel)
{
	if (kernel && rt.printlen) {
		fflush(stdout); /* after what the program printed before the launch */
		fwrite(rt.printbuf, 1, rt.printlen, stdout);
		fflush(stdout);
	}
	if (kernel && rt.print_dropped)
		fprintf(stderr, "weft-cudart: kernel %s: %llu bytes of device printf output dropped beyond "
			"cudaLimitPrintfFifoSize (%zu bytes a launch), as a GPU drops them\n", kernel,
			(unsigned long long)rt.print_dropped, rt.limits[WCU_LIMIT_PRINTF_FIFO_SIZE]);
	rt.printlen = 0;
	rt.print_dropped = 0;
}

void rt_print_free(void)
{
	free(rt.printbuf);
	rt.printbuf = NULL;
	rt.printlen = rt.printcap = 0;
	rt.print_dropped = 0;
}
