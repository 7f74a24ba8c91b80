/*
 * emu_printf.c - device-side printf: the handler of `call vprintf`.
 *
 * nvcc compiles printf(fmt, ...) into vprintf(fmt, args): fmt a generic
 * pointer to the format string, args a generic pointer to a buffer in the
 * thread's local memory holding the arguments one after another, each at
 * an offset aligned to its size (CUDA C++ Programming Guide, "Formatted
 * Output": integers of up to 32 bits take 4 bytes, 64-bit integers,
 * pointers, doubles and floats promoted to double take 8, a %s argument is
 * the string's generic address). Each active lane's text is formatted
 * here, in lane order, and handed to weft_ctx_options.print.
 *
 * The format string comes from the kernel, so it is hostile: it is parsed
 * here, conversion by conversion, and only a conversion rebuilt from what
 * was checked (flags, a width and precision of at most 3 digits, a
 * length modifier, one of d i o u x X c s f F e E g G a A p) reaches
 * snprintf; %n prints nothing and writes nothing; anything else is copied
 * as text. Bounds (host.h): WEFT_PRINTF_MAX_FORMAT bytes of format,
 * WEFT_PRINTF_MAX_STRING per %s string, WEFT_PRINTF_MAX_ARGS arguments
 * (CUDA's 32), WEFT_PRINTF_MAX_TEXT bytes of text per call (longer ends in
 * "..."). An argument or string outside memory faults the kernel, naming
 * the address, as any other access does. vprintf returns the number of
 * arguments it read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "emu.h"

struct out {
	char buf[WEFT_PRINTF_MAX_TEXT + 1];
	size_t n;
	int cut;
};

static void put(struct out *o, const char *s, size_t len)
{
	size_t room = WEFT_PRINTF_MAX_TEXT - o->n;
	if (len > room) {
		len = room;
		o->cut = 1;
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

/* A NUL-terminated string of the device at generic address a into buf
 * (at most cap - 1 bytes); 0, or the fault. */
static int read_string(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		       int lane, uint64_t a, char *buf, size_t cap)
{
	size_t n = 0;
	for (; n + 1 < cap; n++) {
		uint8_t sp;
		const uint8_t *p = weft_emu_mem_slow(L, W, ei, lane, WEFT_SPACE_GENERIC, a + n, 1, 0, &sp);
		if (!p)
			return WEFT_ERR_RUNTIME;
		if (!*p)
			break;
		buf[n] = (char)*p;
	}
	buf[n] = 0;
	return 0;
}

/* The next argument of `bytes` bytes (4 or 8) from the buffer at args. */
static int next_arg(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		    int lane, uint64_t args, uint64_t *off, unsigned bytes, uint64_t *v)
{
	*off = (*off + bytes - 1) / bytes * bytes;
	uint8_t sp;
	const uint8_t *p = weft_emu_mem_slow(L, W, ei, lane, WEFT_SPACE_GENERIC, args + *off, bytes, 0, &sp);
	if (!p)
		return WEFT_ERR_RUNTIME;
	uint64_t x = 0;
	memcpy(&x, p, bytes); /* little-endian, as the emulator's memory */
	*v = x;
	*off += bytes;
	return 0;
}

/* One lane's call: formats into o; *nargs gets the arguments read. */
static int format(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		  int lane, uint64_t fmt_addr, uint64_t args, struct out *o, int *nargs)
{
	char fmt[WEFT_PRINTF_MAX_FORMAT + 1];
	char str[WEFT_PRINTF_MAX_STRING + 1];
	int rc = read_string(L, W, ei, lane, fmt_addr, fmt, sizeof(fmt));
	if (rc)
		return rc;
	uint64_t off = 0;
	*nargs = 0;
	for (const char *p = fmt; *p;) {
		if (*p != '%') {
			const char *q = strchr(p, '%');
			size_t len = q ? (size_t)(q - p) : strlen(p);
			put(o, p, len);
			p += len;
			continue;
		}
		if (p[1] == '%') {
			put(o, "%", 1);
			p += 2;
			continue;
		}
		/* %[flags][width][.precision][length]conversion */
		const char *start = p++;
		char spec[32];
		size_t sn = 0;
		spec[sn++] = '%';
		while (*p && strchr("-+ #0", *p) && sn < 8)
			spec[sn++] = *p++;
		int digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 3) {
			spec[sn++] = *p++;
			digits++;
		}
		int ok = !(*p >= '0' && *p <= '9');
		if (ok && *p == '.') {
			spec[sn++] = *p++;
			digits = 0;
			while (*p >= '0' && *p <= '9' && digits < 3) {
				spec[sn++] = *p++;
				digits++;
			}
			ok = !(*p >= '0' && *p <= '9');
		}
		int longarg = 0; /* an 8-byte integer argument */
		while (ok && *p && strchr("hlLqjzt", *p)) {
			longarg |= *p != 'h';
			p++;
		}
		char conv = ok ? *p : 0;
		if (!conv || !strchr("diouxXcsfFeEgGaApn", conv) || *nargs >= (int)WEFT_PRINTF_MAX_ARGS) {
			/* not a conversion weft formats: the text as it stands */
			size_t len = (size_t)(p - start) + (*p ? 1 : 0);
			put(o, start, len);
			p = start + len;
			continue;
		}
		p++;
		char text[WEFT_PRINTF_MAX_STRING + 1100];
		int tn = 0;
		uint64_t v = 0;
		switch (conv) {
		case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':
			rc = next_arg(L, W, ei, lane, args, &off, longarg && conv != 'c' ? 8 : 4, &v);
			if (rc)
				return rc;
			if (conv == 'c') {
				spec[sn++] = 'c';
				spec[sn] = 0;
				tn = snprintf(text, sizeof(text), spec, (int)(unsigned char)v);
			} else {
				spec[sn++] = 'l';
				spec[sn++] = 'l';
				spec[sn++] = conv;
				spec[sn] = 0;
				int sgn = conv == 'd' || conv == 'i';
				long long sv = longarg ? (long long)(int64_t)v : (long long)(int32_t)(uint32_t)v;
				unsigned long long uv = longarg ? (unsigned long long)v : (unsigned long long)(uint32_t)v;
				tn = sgn ? snprintf(text, sizeof(text), spec, sv) : snprintf(text, sizeof(text), spec, uv);
			}
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
			rc = next_arg(L, W, ei, lane, args, &off, 8, &v);
			if (rc)
				return rc;
			double d;
			memcpy(&d, &v, 8);
			spec[sn++] = conv;
			spec[sn] = 0;
			tn = snprintf(text, sizeof(text), spec, d);
			break;
		}
		case 's':
			rc = next_arg(L, W, ei, lane, args, &off, 8, &v);
			if (rc)
				return rc;
			if (!v)
				strcpy(str, "(null)");
			else if ((rc = read_string(L, W, ei, lane, v, str, sizeof(str))))
				return rc;
			spec[sn++] = 's';
			spec[sn] = 0;
			tn = snprintf(text, sizeof(text), spec, str);
			break;
		case 'p':
			rc = next_arg(L, W, ei, lane, args, &off, 8, &v);
			if (rc)
				return rc;
			tn = snprintf(text, sizeof(text), "0x%" PRIx64, v);
			break;
		default: /* 'n': an argument slot, nothing printed or written */
			rc = next_arg(L, W, ei, lane, args, &off, 8, &v);
			if (rc)
				return rc;
			break;
		}
		(*nargs)++;
		if (tn > 0)
			put(o, text, (size_t)tn < sizeof(text) ? (size_t)tn : sizeof(text) - 1);
	}
	return 0;
}

int weft_emu_printf(struct weft_emu_launch *L, struct weft_emu_warp *W, const struct weft_emu_inst *ei,
		    uint32_t mask)
{
	struct weft_ctx *ctx = L->ctx;
	if (!ctx->opts.print)
		return 0;
	if (!ei->is_printf)
		return weft_emu_fault(L, W, __builtin_ctz(mask), ei, WEFT_ERR_RUNTIME,
				      "vprintf called with arguments that are not call-site .param variables; "
				      "weft formats device printf only as nvcc calls it");
	struct out o;
	for (uint32_t m = mask; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		uint8_t *frame = L->local + (size_t)(W->id * 32 + (uint32_t)l) * L->local_bytes;
		uint64_t fmt = 0, args = 0;
		if ((uint64_t)ei->aoff + 8 > L->local_bytes || (uint64_t)ei->target + 8 > L->local_bytes)
			return weft_emu_fault(L, W, l, ei, WEFT_ERR_INTERNAL,
					      "internal error: vprintf's parameters lie outside the local frame");
		memcpy(&fmt, frame + ei->aoff, 8);
		memcpy(&args, frame + ei->target, 8);
		o.n = 0;
		o.cut = 0;
		int nargs = 0;
		int rc = format(L, W, ei, l, fmt, args, &o, &nargs);
		if (rc)
			return rc;
		if (o.cut) {
			memcpy(o.buf + WEFT_PRINTF_MAX_TEXT - 3, "...", 3);
			o.n = WEFT_PRINTF_MAX_TEXT;
		}
		ctx->opts.print(ctx->opts.print_user, o.buf, o.n);
		if (ei->reconv != WEFT_EMU_NO_PC && (uint64_t)ei->reconv + 4 <= L->local_bytes) {
			uint32_t r = (uint32_t)nargs;
			memcpy(frame + ei->reconv, &r, 4);
		}
	}
	return 0;
}
