/*
 * bits.h - the set bits of a 64-bit lane mask. Without a -mpopcnt (or
 * -march) flag, which weft does not assume of the machines its binaries
 * run on, GCC and clang compile __builtin_popcountll on x86 to a call into
 * libgcc (__popcountdi2, the SWAR count of Hacker's Delight, 2nd ed.,
 * section 5-1: about twenty instructions). Here x86 checks the CPU once per
 * call (a load and a predicted branch) and counts with the POPCNT
 * instruction where it has one; elsewhere, and on x86 without it, the
 * compiler's own popcount.
 */
#ifndef WEFT_BITS_H
#define WEFT_BITS_H

#include <stdint.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__POPCNT__)
__attribute__((target("popcnt"))) static inline unsigned weft_popcount64_insn(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* The number of bits set in v (0..64). */
static inline unsigned weft_popcount64(uint64_t v)
{
	if (__builtin_cpu_supports("popcnt"))
		return weft_popcount64_insn(v);
	return (unsigned)__builtin_popcountll(v);
}
#else
/* The number of bits set in v (0..64). */
static inline unsigned weft_popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}
#endif

#endif
