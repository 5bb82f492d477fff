// The NVIDIA Management Library, loaded at run time (dlopen of libnvidia-ml.so.1 through the
// normal library search), so the agent builds without the CUDA toolkit and still starts on nodes
// without a driver. Only the types and functions the agent uses are declared, with the layouts of
// NVIDIA's documented ABI (nvml.h). Thread-safety: NVML is thread-safe and a Library is immutable
// once open; it must outlive every call made through it.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace tunedeck::worker::nvml {

// nvmlReturn_t (an enum, int-sized); the codes the agent tells apart.
using Return = int;
inline constexpr Return kSuccess = 0;
inline constexpr Return kErrorNotSupported = 3;
inline constexpr Return kErrorInsufficientSize = 7;
inline constexpr Return kErrorGpuIsLost = 15;

struct DeviceTag;
using Device = DeviceTag*;  // nvmlDevice_t, an opaque pointer

struct Memory {  // nvmlMemory_t, bytes
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

struct Utilization {  // nvmlUtilization_t, percent over the driver's last sample period
    unsigned int gpu;
    unsigned int memory;
};

// nvmlProcessInfo_v1_t: what nvmlDeviceGetComputeRunningProcesses (the unversioned symbol) fills.
struct ProcessInfoV1 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
};

// nvmlProcessInfo_t (== nvmlProcessInfo_v2_t): what the _v2 and _v3 symbols fill.
struct ProcessInfoV2 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};

static_assert(sizeof(Memory) == 24 && sizeof(Utilization) == 8);
static_assert(sizeof(ProcessInfoV1) == 16 && sizeof(ProcessInfoV2) == 24);

// A compute process on a card, with the card memory it holds (-1 where the driver cannot say:
// under MIG, or without the rights to see other users' processes).
struct ComputeProcess {
    unsigned int pid = 0;
    long long memoryMb = -1;
};

class Library {
  public:
    // Loads libnvidia-ml.so.1 and initialises it. Null when that fails, with `why` in the user's
    // words and `driverFound` telling a missing library (a node without NVIDIA GPUs) from a
    // driver that is there but cannot start (worth a line on stderr).
    static std::unique_ptr<Library> open(std::string* why, bool* driverFound);
    ~Library();  // nvmlShutdown, then dlclose
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    std::string errorString(Return code) const;

    Return deviceCount(unsigned int* count) const;
    Return deviceByIndex(unsigned int index, Device* device) const;
    Return uuid(Device device, std::string* out) const;
    Return name(Device device, std::string* out) const;
    Return memory(Device device, Memory* out) const;
    // The readings a driver may not support on every card answer kErrorNotSupported then.
    Return utilization(Device device, Utilization* out) const;
    Return temperatureC(Device device, unsigned int* out) const;
    Return powerMilliwatts(Device device, unsigned int* out) const;
    // The pids of the compute processes on the card: _v3, else _v2, else the unversioned query.
    Return computeProcesses(Device device, std::vector<ComputeProcess>* processes) const;

  private:
    struct Symbols;
    Library(void* handle, std::unique_ptr<Symbols> symbols);

    void* m_handle;
    std::unique_ptr<Symbols> m_symbols;
};

}  // namespace tunedeck::worker::nvml
