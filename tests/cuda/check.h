// check.h - what the corpus programs share: CHECK(call) stops the program
// (exit status 1) when a CUDA call fails, naming the call and the error;
// EXPECT_ERROR(call, code) checks that a call fails as the CUDA runtime
// documents and prints the error's name, so the program's output shows it.
#ifndef CORPUS_CHECK_H
#define CORPUS_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                   \
	do {                                                                          \
		cudaError_t e_ = (call);                                              \
		if (e_ != cudaSuccess) {                                              \
			printf("FAIL %s: %s (%s)\n", #call, cudaGetErrorName(e_),     \
			       cudaGetErrorString(e_));                               \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

#define EXPECT_ERROR(call, code)                                                      \
	do {                                                                          \
		cudaError_t e_ = (call);                                              \
		printf("%s -> %s\n", #call, cudaGetErrorName(e_));                    \
		if (e_ != (code)) {                                                   \
			printf("FAIL expected %s\n", cudaGetErrorName(code));         \
			exit(1);                                                      \
		}                                                                     \
	} while (0)

#endif
