/*
 * rt_errnames.c - cudaGetErrorName and cudaGetErrorString: every code of
 * enum cudaError in CUDA 13.0's driver_types.h with its enumerator's name;
 * the texts are weft's own words for the codes the library returns, and the
 * name for the others.
 */
#include "rt.h"

#include <stddef.h>

static const struct {
	int code;
	const char *name;
	const char *text; /* NULL: the name */
} table[] = {
	{ 0, "cudaSuccess", "no error" },
	{ 1, "cudaErrorInvalidValue", "an argument is out of range or invalid" },
	{ 2, "cudaErrorMemoryAllocation", "device memory could not be allocated (weft: the device memory limit)" },
	{ 3, "cudaErrorInitializationError", "the runtime could not start (weft: a bad WEFT_CUDART_* environment variable)" },
	{ 4, "cudaErrorCudartUnloading", "the runtime is shutting down" },
	{ 5, "cudaErrorProfilerDisabled", NULL },
	{ 6, "cudaErrorProfilerNotInitialized", NULL },
	{ 7, "cudaErrorProfilerAlreadyStarted", NULL },
	{ 8, "cudaErrorProfilerAlreadyStopped", NULL },
	{ 9, "cudaErrorInvalidConfiguration", "the launch configuration is beyond the device limits" },
	{ 12, "cudaErrorInvalidPitchValue", "a pitch is smaller than the width or beyond the limit" },
	{ 13, "cudaErrorInvalidSymbol", "not a __device__ or __constant__ variable of this program" },
	{ 16, "cudaErrorInvalidHostPointer", NULL },
	{ 17, "cudaErrorInvalidDevicePointer", "not a device pointer" },
	{ 18, "cudaErrorInvalidTexture", NULL },
	{ 19, "cudaErrorInvalidTextureBinding", NULL },
	{ 20, "cudaErrorInvalidChannelDescriptor", NULL },
	{ 21, "cudaErrorInvalidMemcpyDirection", "the copy kind does not match the pointers" },
	{ 22, "cudaErrorAddressOfConstant", NULL },
	{ 23, "cudaErrorTextureFetchFailed", NULL },
	{ 24, "cudaErrorTextureNotBound", NULL },
	{ 25, "cudaErrorSynchronizationError", NULL },
	{ 26, "cudaErrorInvalidFilterSetting", NULL },
	{ 27, "cudaErrorInvalidNormSetting", NULL },
	{ 28, "cudaErrorMixedDeviceExecution", NULL },
	{ 31, "cudaErrorNotYetImplemented", NULL },
	{ 32, "cudaErrorMemoryValueTooLarge", NULL },
	{ 34, "cudaErrorStubLibrary", NULL },
	{ 35, "cudaErrorInsufficientDriver", NULL },
	{ 36, "cudaErrorCallRequiresNewerDriver", NULL },
	{ 37, "cudaErrorInvalidSurface", NULL },
	{ 43, "cudaErrorDuplicateVariableName", NULL },
	{ 44, "cudaErrorDuplicateTextureName", NULL },
	{ 45, "cudaErrorDuplicateSurfaceName", NULL },
	{ 46, "cudaErrorDevicesUnavailable", NULL },
	{ 49, "cudaErrorIncompatibleDriverContext", NULL },
	{ 52, "cudaErrorMissingConfiguration", "no launch configuration was pushed before the launch" },
	{ 53, "cudaErrorPriorLaunchFailure", NULL },
	{ 65, "cudaErrorLaunchMaxDepthExceeded", NULL },
	{ 66, "cudaErrorLaunchFileScopedTex", NULL },
	{ 67, "cudaErrorLaunchFileScopedSurf", NULL },
	{ 68, "cudaErrorSyncDepthExceeded", NULL },
	{ 69, "cudaErrorLaunchPendingCountExceeded", NULL },
	{ 98, "cudaErrorInvalidDeviceFunction", "not a kernel registered by this program" },
	{ 100, "cudaErrorNoDevice", "no device" },
	{ 101, "cudaErrorInvalidDevice", "no such device (weft has one, device 0)" },
	{ 102, "cudaErrorDeviceNotLicensed", NULL },
	{ 103, "cudaErrorSoftwareValidityNotEstablished", NULL },
	{ 127, "cudaErrorStartupFailure", NULL },
	{ 200, "cudaErrorInvalidKernelImage", "the fatbinary is corrupt or in a form weft does not read" },
	{ 201, "cudaErrorDeviceUninitialized", NULL },
	{ 205, "cudaErrorMapBufferObjectFailed", NULL },
	{ 206, "cudaErrorUnmapBufferObjectFailed", NULL },
	{ 207, "cudaErrorArrayIsMapped", NULL },
	{ 208, "cudaErrorAlreadyMapped", NULL },
	{ 209, "cudaErrorNoKernelImageForDevice", "the fatbinary has no PTX weft can run" },
	{ 210, "cudaErrorAlreadyAcquired", NULL },
	{ 211, "cudaErrorNotMapped", NULL },
	{ 212, "cudaErrorNotMappedAsArray", NULL },
	{ 213, "cudaErrorNotMappedAsPointer", NULL },
	{ 214, "cudaErrorECCUncorrectable", NULL },
	{ 215, "cudaErrorUnsupportedLimit", "unknown limit" },
	{ 216, "cudaErrorDeviceAlreadyInUse", NULL },
	{ 217, "cudaErrorPeerAccessUnsupported", NULL },
	{ 218, "cudaErrorInvalidPtx", "the PTX could not be loaded" },
	{ 219, "cudaErrorInvalidGraphicsContext", NULL },
	{ 220, "cudaErrorNvlinkUncorrectable", NULL },
	{ 221, "cudaErrorJitCompilerNotFound", NULL },
	{ 222, "cudaErrorUnsupportedPtxVersion", NULL },
	{ 223, "cudaErrorJitCompilationDisabled", NULL },
	{ 224, "cudaErrorUnsupportedExecAffinity", NULL },
	{ 225, "cudaErrorUnsupportedDevSideSync", NULL },
	{ 226, "cudaErrorContained", NULL },
	{ 300, "cudaErrorInvalidSource", NULL },
	{ 301, "cudaErrorFileNotFound", NULL },
	{ 302, "cudaErrorSharedObjectSymbolNotFound", NULL },
	{ 303, "cudaErrorSharedObjectInitFailed", NULL },
	{ 304, "cudaErrorOperatingSystem", NULL },
	{ 400, "cudaErrorInvalidResourceHandle", "not a live stream, event or handle" },
	{ 401, "cudaErrorIllegalState", NULL },
	{ 402, "cudaErrorLossyQuery", NULL },
	{ 500, "cudaErrorSymbolNotFound", NULL },
	{ 600, "cudaErrorNotReady", "the work is not finished" },
	{ 700, "cudaErrorIllegalAddress", "a kernel accessed memory it may not" },
	{ 701, "cudaErrorLaunchOutOfResources", NULL },
	{ 702, "cudaErrorLaunchTimeout", "a kernel ran out of its instruction budget" },
	{ 703, "cudaErrorLaunchIncompatibleTexturing", NULL },
	{ 704, "cudaErrorPeerAccessAlreadyEnabled", NULL },
	{ 705, "cudaErrorPeerAccessNotEnabled", NULL },
	{ 708, "cudaErrorSetOnActiveProcess", NULL },
	{ 709, "cudaErrorContextIsDestroyed", NULL },
	{ 710, "cudaErrorAssert", "a device-side assert failed" },
	{ 711, "cudaErrorTooManyPeers", NULL },
	{ 712, "cudaErrorHostMemoryAlreadyRegistered", NULL },
	{ 713, "cudaErrorHostMemoryNotRegistered", NULL },
	{ 714, "cudaErrorHardwareStackError", NULL },
	{ 715, "cudaErrorIllegalInstruction", NULL },
	{ 716, "cudaErrorMisalignedAddress", "a kernel accessed memory at a misaligned address" },
	{ 717, "cudaErrorInvalidAddressSpace", NULL },
	{ 718, "cudaErrorInvalidPc", NULL },
	{ 719, "cudaErrorLaunchFailure", "a kernel stopped with a fault" },
	{ 720, "cudaErrorCooperativeLaunchTooLarge", NULL },
	{ 721, "cudaErrorTensorMemoryLeak", NULL },
	{ 800, "cudaErrorNotPermitted", NULL },
	{ 801, "cudaErrorNotSupported", "not supported by weft yet" },
	{ 802, "cudaErrorSystemNotReady", NULL },
	{ 803, "cudaErrorSystemDriverMismatch", NULL },
	{ 804, "cudaErrorCompatNotSupportedOnDevice", NULL },
	{ 805, "cudaErrorMpsConnectionFailed", NULL },
	{ 806, "cudaErrorMpsRpcFailure", NULL },
	{ 807, "cudaErrorMpsServerNotReady", NULL },
	{ 808, "cudaErrorMpsMaxClientsReached", NULL },
	{ 809, "cudaErrorMpsMaxConnectionsReached", NULL },
	{ 810, "cudaErrorMpsClientTerminated", NULL },
	{ 811, "cudaErrorCdpNotSupported", NULL },
	{ 812, "cudaErrorCdpVersionMismatch", NULL },
	{ 900, "cudaErrorStreamCaptureUnsupported", NULL },
	{ 901, "cudaErrorStreamCaptureInvalidated", NULL },
	{ 902, "cudaErrorStreamCaptureMerge", NULL },
	{ 903, "cudaErrorStreamCaptureUnmatched", NULL },
	{ 904, "cudaErrorStreamCaptureUnjoined", NULL },
	{ 905, "cudaErrorStreamCaptureIsolation", NULL },
	{ 906, "cudaErrorStreamCaptureImplicit", NULL },
	{ 907, "cudaErrorCapturedEvent", NULL },
	{ 908, "cudaErrorStreamCaptureWrongThread", NULL },
	{ 909, "cudaErrorTimeout", NULL },
	{ 910, "cudaErrorGraphExecUpdateFailure", NULL },
	{ 911, "cudaErrorExternalDevice", NULL },
	{ 912, "cudaErrorInvalidClusterSize", NULL },
	{ 913, "cudaErrorFunctionNotLoaded", NULL },
	{ 914, "cudaErrorInvalidResourceType", NULL },
	{ 915, "cudaErrorInvalidResourceConfiguration", NULL },
	{ 999, "cudaErrorUnknown", "an internal error" },
};

static int find(int code)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].code == code)
			return (int)i;
	return -1;
}

const char *rt_error_name(int code)
{
	int i = find(code);
	return i < 0 ? "cudaErrorUnknownCode" : table[i].name;
}

const char *rt_error_text(int code)
{
	int i = find(code);
	if (i < 0)
		return "unrecognized error code";
	return table[i].text ? table[i].text : table[i].name;
}
