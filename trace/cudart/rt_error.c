/*
 * rt_error.c - what a program asks about errors: cudaGetLastError (the
 * thread's last error, then cleared; a fault's sticky error stays),
 * cudaPeekAtLastError, cudaGetErrorName and cudaGetErrorString.
 */
#include "rt.h"

WCU_API int cudaGetLastError(void)
{
	int e = rt_enter("cudaGetLastError");
	if (e == WCU_CUDART_UNLOADING)
		return rt_leave(e);
	e = rt_last_error(1);
	rt_leave(0);
	return e;
}

WCU_API int cudaPeekAtLastError(void)
{
	int e = rt_enter("cudaPeekAtLastError");
	if (e == WCU_CUDART_UNLOADING)
		return rt_leave(e);
	e = rt_last_error(0);
	rt_leave(0);
	return e;
}

WCU_API const char *cudaGetErrorName(int code)
{
	return rt_error_name(code);
}

WCU_API const char *cudaGetErrorString(int code)
{
	return rt_error_text(code);
}
