#include "worker/nvml_library.h"

#include <dlfcn.h>

#include <cstring>
#include <utility>

#include "worker/tuning.h"

namespace tunedeck::worker::nvml {

namespace {

// The name the driver installs; found through LD_LIBRARY_PATH and the ld.so cache, as CUDA does.
constexpr const char* kLibraryName = "libnvidia-ml.so.1";

// NVML_DEVICE_UUID_V2_BUFFER_SIZE and NVML_DEVICE_NAME_V2_BUFFER_SIZE.
constexpr unsigned int kUuidBufferSize = 96;
constexpr unsigned int kNameBufferSize = 96;

constexpr int kTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

template <typename Function>
Function lookUp(void* handle, const char* symbol) {
    return reinterpret_cast<Function>(::dlsym(handle, symbol));
}

}  // namespace

struct Library::Symbols {
    Return (*init)() = nullptr;
    Return (*shutdown)() = nullptr;
    const char* (*errorString)(Return) = nullptr;
    Return (*deviceCount)(unsigned int*) = nullptr;
    Return (*deviceByIndex)(unsigned int, Device*) = nullptr;
    Return (*uuid)(Device, char*, unsigned int) = nullptr;
    Return (*name)(Device, char*, unsigned int) = nullptr;
    Return (*memory)(Device, Memory*) = nullptr;
    Return (*utilization)(Device, Utilization*) = nullptr;
    Return (*temperature)(Device, int, unsigned int*) = nullptr;
    Return (*power)(Device, unsigned int*) = nullptr;
    // Exactly one of these is used: the newest the driver has.
    Return (*processesV2Layout)(Device, unsigned int*, ProcessInfoV2*) = nullptr;
    Return (*processesV1Layout)(Device, unsigned int*, ProcessInfoV1*) = nullptr;
};

std::unique_ptr<Library> Library::open(std::string* why, bool* driverFound) {
    *driverFound = false;
    void* handle = ::dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* error = ::dlerror();
        *why = std::string("no NVIDIA driver: ") + (error ? error : kLibraryName);
        return nullptr;
    }
    *driverFound = true;
    auto symbols = std::make_unique<Symbols>();
    Symbols& s = *symbols;
    s.init = lookUp<decltype(s.init)>(handle, "nvmlInit_v2");
    s.shutdown = lookUp<decltype(s.shutdown)>(handle, "nvmlShutdown");
    s.errorString = lookUp<decltype(s.errorString)>(handle, "nvmlErrorString");
    s.deviceCount = lookUp<decltype(s.deviceCount)>(handle, "nvmlDeviceGetCount_v2");
    s.deviceByIndex = lookUp<decltype(s.deviceByIndex)>(handle, "nvmlDeviceGetHandleByIndex_v2");
    s.uuid = lookUp<decltype(s.uuid)>(handle, "nvmlDeviceGetUUID");
    s.name = lookUp<decltype(s.name)>(handle, "nvmlDeviceGetName");
    s.memory = lookUp<decltype(s.memory)>(handle, "nvmlDeviceGetMemoryInfo");
    s.utilization = lookUp<decltype(s.utilization)>(handle, "nvmlDeviceGetUtilizationRates");
    s.temperature = lookUp<decltype(s.temperature)>(handle, "nvmlDeviceGetTemperature");
    s.power = lookUp<decltype(s.power)>(handle, "nvmlDeviceGetPowerUsage");
    s.processesV2Layout =
        lookUp<decltype(s.processesV2Layout)>(handle, "nvmlDeviceGetComputeRunningProcesses_v3");
    if (s.processesV2Layout == nullptr) {
        s.processesV2Layout = lookUp<decltype(s.processesV2Layout)>(
            handle, "nvmlDeviceGetComputeRunningProcesses_v2");
    }
    if (s.processesV2Layout == nullptr) {
        s.processesV1Layout =
            lookUp<decltype(s.processesV1Layout)>(handle, "nvmlDeviceGetComputeRunningProcesses");
    }
    const std::pair<bool, const char*> required[] = {
        {s.init != nullptr, "nvmlInit_v2"},
        {s.shutdown != nullptr, "nvmlShutdown"},
        {s.errorString != nullptr, "nvmlErrorString"},
        {s.deviceCount != nullptr, "nvmlDeviceGetCount_v2"},
        {s.deviceByIndex != nullptr, "nvmlDeviceGetHandleByIndex_v2"},
        {s.uuid != nullptr, "nvmlDeviceGetUUID"},
        {s.name != nullptr, "nvmlDeviceGetName"},
        {s.memory != nullptr, "nvmlDeviceGetMemoryInfo"},
    };
    for (const auto& [present, symbol] : required) {
        if (!present) {
            *why = std::string(kLibraryName) + " has no " + symbol + " (the driver is too old)";
            ::dlclose(handle);
            return nullptr;
        }
    }
    if (const Return code = s.init(); code != kSuccess) {
        const char* text = s.errorString(code);
        *why = std::string("NVML could not start: ") + (text ? text : "error") + " (code " +
               std::to_string(code) + ")";
        ::dlclose(handle);
        return nullptr;
    }
    return std::unique_ptr<Library>(new Library(handle, std::move(symbols)));
}

Library::Library(void* handle, std::unique_ptr<Symbols> symbols)
    : m_handle(handle), m_symbols(std::move(symbols)) {}

Library::~Library() {
    m_symbols->shutdown();
    ::dlclose(m_handle);
}

std::string Library::errorString(Return code) const {
    const char* text = m_symbols->errorString(code);
    return text ? text : "NVML error " + std::to_string(code);
}

Return Library::deviceCount(unsigned int* count) const {
    return m_symbols->deviceCount(count);
}

Return Library::deviceByIndex(unsigned int index, Device* device) const {
    return m_symbols->deviceByIndex(index, device);
}

Return Library::uuid(Device device, std::string* out) const {
    char text[kUuidBufferSize] = {};
    const Return code = m_symbols->uuid(device, text, kUuidBufferSize);
    if (code == kSuccess) {
        *out = std::string(text, ::strnlen(text, kUuidBufferSize));
    }
    return code;
}

Return Library::name(Device device, std::string* out) const {
    char text[kNameBufferSize] = {};
    const Return code = m_symbols->name(device, text, kNameBufferSize);
    if (code == kSuccess) {
        *out = std::string(text, ::strnlen(text, kNameBufferSize));
    }
    return code;
}

Return Library::memory(Device device, Memory* out) const {
    return m_symbols->memory(device, out);
}

Return Library::utilization(Device device, Utilization* out) const {
    return m_symbols->utilization ? m_symbols->utilization(device, out) : kErrorNotSupported;
}

Return Library::temperatureC(Device device, unsigned int* out) const {
    return m_symbols->temperature ? m_symbols->temperature(device, kTemperatureGpu, out)
                                  : kErrorNotSupported;
}

Return Library::powerMilliwatts(Device device, unsigned int* out) const {
    return m_symbols->power ? m_symbols->power(device, out) : kErrorNotSupported;
}

namespace {

// Asks with a buffer that grows on NVML_ERROR_INSUFFICIENT_SIZE (the count is then what the
// driver needs; processes may start in between, hence a few rounds with some slack).
template <typename Info, typename Query>
Return queryProcesses(Query query, Device device, std::vector<ComputeProcess>* processes) {
    std::vector<Info> infos(kGpuProcessesFirstAsk);
    for (int round = 0; round < 4; ++round) {
        unsigned int count = static_cast<unsigned int>(infos.size());
        const Return code = query(device, &count, infos.data());
        if (code == kErrorInsufficientSize && count < kGpuProcessesMostAsked) {
            infos.resize(static_cast<std::size_t>(count) + kGpuProcessesFirstAsk);
            continue;
        }
        if (code != kSuccess) {
            return code;
        }
        processes->clear();
        for (unsigned int i = 0; i < count && i < infos.size(); ++i) {
            // NVML_VALUE_NOT_AVAILABLE is all ones.
            const unsigned long long bytes = infos[i].usedGpuMemory;
            processes->push_back(
                {infos[i].pid, bytes == ~0ULL ? -1 : static_cast<long long>(bytes >> 20)});
        }
        return kSuccess;
    }
    return kErrorInsufficientSize;
}

}  // namespace

Return Library::computeProcesses(Device device, std::vector<ComputeProcess>* processes) const {
    if (m_symbols->processesV2Layout) {
        return queryProcesses<ProcessInfoV2>(m_symbols->processesV2Layout, device, processes);
    }
    if (m_symbols->processesV1Layout) {
        return queryProcesses<ProcessInfoV1>(m_symbols->processesV1Layout, device, processes);
    }
    return kErrorNotSupported;
}

}  // namespace tunedeck::worker::nvml
