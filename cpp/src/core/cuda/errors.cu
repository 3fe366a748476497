// CUDA errors as dyng::cuda_error: the call, the error's name and text, the place, and a remedy
// chosen by the error (ADR 0004). Runs no kernel and allocates no device memory, so it works
// in any state the process is in, including without a device or a driver.
#include <cuda_runtime.h>

#include <string>

#include "core/cuda/cuda.cuh"
#include "core/cuda/state.cuh"
#include "dyng/core/build_info.hpp"
#include "dyng/core/error.hpp"

namespace dyng::detail {
namespace {

/// "device 0 (compute capability 9.0)", best effort: the query may fail in a broken process.
std::string current_device_words()
{
  int dev = -1;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return "the current device (compute capability unknown)";
  }
  int major = 0;
  int minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return "device " + std::to_string(dev) + " (compute capability unknown)";
  }
  return "device " + std::to_string(dev) + " (compute capability " + std::to_string(major) + "." +
         std::to_string(minor) + ", sm_" + std::to_string(major * 10 + minor) + ")";
}

std::string cuda_version_words(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

bool is_sticky(cudaError_t err)
{
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable: return true;
    default: return false;
  }
}

std::string remedy(cudaError_t err)
{
  switch (err) {
    case cudaErrorInitializationError:
      return "CUDA could not be initialized in this process. If it was forked from a parent that "
             "had already used CUDA (Python's multiprocessing uses fork by default on Linux), CUDA "
             "cannot work in the child: start workers with the 'spawn' or 'forkserver' start "
             "method (multiprocessing.set_start_method('spawn')), or use CUDA only in the "
             "children. Otherwise check the driver installation with nvidia-smi.";
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      return "this build of dyng has no kernel for " + current_device_words() +
             "; it was built for the CUDA architectures " + std::string(library_build().cuda_architectures) +
             ". Rebuild with -DDYNG_CUDA_ARCHITECTURES=native on this machine, or add the device's "
             "architecture to DYNG_CUDA_ARCHITECTURES (dyng supports compute capability 7.5 and "
             "newer).";
    case cudaErrorUnsupportedPtxVersion:
      return "the driver is too old to compile this build's PTX for " + current_device_words() +
             "; update the NVIDIA driver, or rebuild dyng with SASS for this device "
             "(-DDYNG_CUDA_ARCHITECTURES=native).";
    case cudaErrorMemoryAllocation:
      return "out of device memory: free graphs, results and buffers no longer needed, use "
             "smaller batches, or another device.";
    case cudaErrorInsufficientDriver:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice: {
      int driver = 0;
      static_cast<void>(cudaDriverGetVersion(&driver));
      static_cast<void>(cudaGetLastError());
      return "the NVIDIA driver (CUDA " + (driver > 0 ? cuda_version_words(driver) : std::string("unknown")) +
             ") does not support this build's CUDA runtime (" + cuda_version_words(CUDART_VERSION) +
             "): update the driver, or use a dyng built with an older CUDA toolkit.";
    }
    case cudaErrorNoDevice:
      return "no CUDA device is visible to this process: check nvidia-smi, CUDA_VISIBLE_DEVICES, "
             "and that a container was started with GPU access (e.g. --gpus all).";
    case cudaErrorInvalidDevice:
      return "the device ordinal does not name a visible device: ordinals count the devices "
             "CUDA sees (after CUDA_VISIBLE_DEVICES), from 0.";
    case cudaErrorDevicesUnavailable:
      return "the device is busy or unavailable (exclusive-process compute mode with another "
             "process on it?): check nvidia-smi, or choose another device.";
    case cudaErrorInvalidResourceHandle:
    case cudaErrorContextIsDestroyed:
      return "a CUDA handle is invalid: the stream given to resources::cuda was destroyed, or "
             "belongs to another device than the resources' device. The stream must outlive every "
             "resources object, graph, result and buffer made with it.";
    case cudaErrorCooperativeLaunchTooLarge:
      return "a cooperative kernel asked for more blocks than the device holds at once; this is a "
             "bug in dyng, please report it.";
    case cudaErrorNotSupported:
    case cudaErrorNotPermitted:
      return "the device or its setup does not allow this operation (MPS or MIG may refuse "
             "cooperative launch or memory pools); choose another engine or device.";
    case cudaErrorLaunchOutOfResources:
      return "a kernel launch asked for more registers or shared memory than the device has; this "
             "is a bug in dyng, please report it with the device's name.";
    default: break;
  }
  if (is_sticky(err)) {
    return "a kernel faulted, and the error is sticky: the CUDA context of this process is "
           "unusable and every later CUDA call fails; restart the process. This is most likely a "
           "bug in dyng: please report it, with the output of compute-sanitizer if you can.";
  }
  return "check the arguments of the call; if the error persists, please report it.";
}

}  // namespace

void throw_cuda_error(cudaError_t err, char const* call, char const* file, int line,
                      std::string const& context)
{
  // Clear the last-error state, so the next call does not report this error again (a sticky
  // error stays: CUDA cannot clear it).
  static_cast<void>(cudaGetLastError());
  std::string msg = "CUDA error: ";
  msg += call != nullptr ? call : "a CUDA call";
  msg += " failed with ";
  msg += cudaGetErrorName(err);
  msg += " (";
  msg += cudaGetErrorString(err);
  msg += "). ";
  if (!context.empty()) msg += context + ". ";
  msg += remedy(err);
  msg += source_tag(file != nullptr ? file : "?", line);  // every error's place, as DYNG_EXPECTS words it
  throw cuda_error(msg);
}

void throw_cuda_error(cudaError_t err, char const* call, char const* file, int line)
{
  throw_cuda_error(err, call, file, line, std::string{});
}

}  // namespace dyng::detail
