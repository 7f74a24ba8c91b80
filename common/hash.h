/*
 * hash.h - FNV-1a 64, the one hash weft records: the PTX module's hash, a
 * trace file's hash and a config's hash (text plus overrides). Start with
 * WEFT_FNV1A_INIT and chain weft_fnv1a over the pieces.
 */
#ifndef WEFT_HASH_H
#define WEFT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define WEFT_FNV1A_INIT 0xcbf29ce484222325ull

/* h folded with len bytes at data (FNV-1a 64). */
static inline uint64_t weft_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *b = data;
	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#endif
