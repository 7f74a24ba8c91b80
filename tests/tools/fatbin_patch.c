/*
 * fatbin_patch.c - test-only tool for tests/cuda/run.sh: damages the first
 * fatbinary holding PTX inside a copy of a CUDA program one way (nvcc puts
 * a device-link fatbinary of machine code only before it), so that the runtime's
 * reader (trace/fatbin/) meets a hostile fatbinary through the program
 * itself. Offsets are the layout trace/fatbin/fatbin.h describes.
 *
 *   fatbin_patch IN OUT entries-size V   the header's bytes of entries (u64 at 8)
 *   fatbin_patch IN OUT entry-header V   the first entry's header size (u32 at 4)
 *   fatbin_patch IN OUT ptx-flags V      the flags of the first PTX entry (u64 at 40)
 *   fatbin_patch IN OUT ptx-kind V       the kind of every PTX entry (u16 at 0)
 *   fatbin_patch IN OUT wrapper-magic V  the wrapper's magic (u32 at 0)
 *   fatbin_patch IN OUT extract          OUT = that fatbinary alone (header and
 *                                        entries: a seed for tests/fuzz/fuzz_fatbin.c)
 *
 * V is a number (0x... for hex). OUT gets IN's mode, so it runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/fatbin/fatbin.h"

static long find(const uint8_t *p, size_t n, uint32_t magic, size_t from)
{
	for (size_t i = from; i + 4 <= n; i += 4) { /* both are 8-byte aligned in the file */
		uint32_t v = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
			     (uint32_t)p[i + 3] << 24;
		if (v == magic)
			return (long)i;
	}
	return -1;
}

static void put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Does the fatbinary at h (within the file's n bytes) hold a PTX entry? */
static int has_ptx(const uint8_t *p, size_t n, size_t h)
{
	if (h + 16 > n)
		return 0;
	uint64_t size = get(p + h + 8, 8);
	if (size > n - h - 16)
		return 0;
	for (size_t off = h + 16, end = h + 16 + size; off + 64 <= end;) {
		if (get(p + off, 2) == WEFT_FATBIN_KIND_PTX)
			return 1;
		uint64_t step = get(p + off + 4, 4) + get(p + off + 8, 8);
		if (!step || step > end - off)
			return 0;
		off += step;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 5 && !(argc == 4 && !strcmp(argv[3], "extract"))) {
		fprintf(stderr, "usage: fatbin_patch IN OUT FIELD VALUE | fatbin_patch IN OUT extract\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	struct stat st;
	if (!f || stat(argv[1], &st)) {
		perror(argv[1]);
		return 2;
	}
	size_t n = (size_t)st.st_size;
	uint8_t *p = malloc(n ? n : 1);
	if (!p || fread(p, 1, n, f) != n) {
		fprintf(stderr, "fatbin_patch: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);
	uint64_t v = argc == 5 ? strtoull(argv[4], NULL, 0) : 0;
	const char *field = argv[3];
	if (!strcmp(field, "wrapper-magic")) {
		long w = find(p, n, WEFT_FATBIN_WRAPPER_MAGIC, 0);
		if (w < 0) {
			fprintf(stderr, "fatbin_patch: no fatbinary wrapper in %s\n", argv[1]);
			return 2;
		}
		put(p + w, v, 4);
	} else {
		long h = -1;
		for (long c = find(p, n, WEFT_FATBIN_MAGIC, 0); c >= 0 && h < 0;
		     c = find(p, n, WEFT_FATBIN_MAGIC, (size_t)c + 4))
			if (has_ptx(p, n, (size_t)c))
				h = c;
		if (h < 0) {
			fprintf(stderr, "fatbin_patch: no fatbinary with PTX in %s\n", argv[1]);
			return 2;
		}
		uint8_t *fb = p + h;
		size_t end = (size_t)h + 16 + (size_t)get(fb + 8, 8);
		if (!strcmp(field, "extract")) {
			memmove(p, fb, end - (size_t)h);
			n = end - (size_t)h;
		} else if (!strcmp(field, "entries-size"))
			put(fb + 8, v, 8);
		else if (!strcmp(field, "entry-header"))
			put(fb + 16 + 4, v, 4);
		else if (!strcmp(field, "ptx-flags") || !strcmp(field, "ptx-kind")) {
			int done = 0;
			for (size_t off = (size_t)h + 16; off + 64 <= end && off + 64 <= n;) {
				uint8_t *e = p + off;
				if (get(e, 2) == WEFT_FATBIN_KIND_PTX && !(done && field[4] == 'f')) {
					if (field[4] == 'f')
						put(e + 40, v, 8);
					else
						put(e, v, 2);
					done = 1;
				}
				off += get(e + 4, 4) + get(e + 8, 8);
			}
			if (!done) {
				fprintf(stderr, "fatbin_patch: no PTX entry in %s\n", argv[1]);
				return 2;
			}
		} else {
			fprintf(stderr, "fatbin_patch: unknown field %s\n", field);
			return 2;
		}
	}
	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(p, 1, n, o) != n || fclose(o)) {
		perror(argv[2]);
		return 2;
	}
	chmod(argv[2], st.st_mode & 0777);
	free(p);
	return 0;
}
