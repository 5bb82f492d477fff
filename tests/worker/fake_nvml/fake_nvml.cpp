// A stand-in for the NVIDIA driver's libnvidia-ml.so.1, so the agent's GPU code runs on machines
// without a GPU. It answers the NVML functions the agent uses from a state file whose path is in
// TUNEDECK_FAKE_NVML_STATE, read again whenever the file changes (tests rewrite it to make a card
// busy, make one disappear, or put a process on one). One line per fact:
//
//   init_error 9                  nvmlInit_v2 fails with this code (9: driver not loaded)
//   gpu uuid=GPU-a name=Fake_A100 memory_total_mb=40960 memory_used_mb=1024 utilization=37
//       temperature=55 power_mw=123000 lost=0          (one line; '_' in name reads as ' ';
//                                                       power_mw=-1: no power sensor)
//   process uuid=GPU-a pid=1234   a compute process on the card (or gpu=INDEX instead of uuid)
//
// The gpu lines in order are the driver's indices. A card marked lost, or whose line is gone,
// answers NVML_ERROR_GPU_IS_LOST. Built twice: the current ABI (the _v3, _v2 and unversioned
// process queries), and with TUNEDECK_FAKE_NVML_LEGACY a driver that has only the unversioned
// query and its shorter process record. Thread-safe: one lock around everything.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidArgument = 2;
constexpr int kNotSupported = 3;
constexpr int kUninitialized = 1;
constexpr int kInsufficientSize = 7;
constexpr int kGpuIsLost = 15;
constexpr unsigned long long kMb = 1024ULL * 1024ULL;

struct Gpu {
    std::string uuid;
    std::string name = "Fake GPU";
    unsigned long long memoryTotalMb = 16384;
    unsigned long long memoryUsedMb = 0;
    unsigned int utilization = 0;
    unsigned int temperature = 40;
    long long powerMw = 100000;
    bool lost = false;
};

struct Process {
    std::string uuid;
    int gpu = -1;
    unsigned int pid = 0;
};

struct State {
    int initError = kSuccess;
    std::vector<Gpu> gpus;
    std::vector<Process> processes;
};

std::mutex gMutex;
State gState;
struct stat gSeen {};
bool gInitialised = false;
std::vector<std::string> gHandles;  // a handle is its UUID's position here, plus one

std::string valueOf(const std::string& line, const char* key) {
    const std::string prefix = std::string(" ") + key + "=";
    const std::size_t at = (" " + line).find(prefix);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + prefix.size() - 1;
    const std::size_t end = line.find_first_of(" \t\r", start);
    return line.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

long long numberOf(const std::string& line, const char* key, long long otherwise) {
    const std::string text = valueOf(line, key);
    return text.empty() ? otherwise : std::strtoll(text.c_str(), nullptr, 10);
}

// Reads the state file again if it changed since the last look.
void refresh() {
    const char* path = std::getenv("TUNEDECK_FAKE_NVML_STATE");
    struct stat now {};
    if (path == nullptr || ::stat(path, &now) != 0) {
        return;
    }
    if (now.st_ino == gSeen.st_ino && now.st_size == gSeen.st_size &&
        now.st_mtim.tv_sec == gSeen.st_mtim.tv_sec &&
        now.st_mtim.tv_nsec == gSeen.st_mtim.tv_nsec) {
        return;
    }
    std::FILE* file = std::fopen(path, "r");
    if (file == nullptr) {
        return;
    }
    gSeen = now;
    State state;
    char buffer[1024];
    while (std::fgets(buffer, sizeof buffer, file) != nullptr) {
        std::string line(buffer);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
            line.pop_back();
        }
        if (line.rfind("init_error ", 0) == 0) {
            state.initError = std::atoi(line.c_str() + 11);
        } else if (line.rfind("gpu ", 0) == 0) {
            Gpu gpu;
            gpu.uuid = valueOf(line, "uuid");
            if (const std::string name = valueOf(line, "name"); !name.empty()) {
                gpu.name = name;
                for (char& c : gpu.name) {
                    c = c == '_' ? ' ' : c;
                }
            }
            gpu.memoryTotalMb =
                static_cast<unsigned long long>(numberOf(line, "memory_total_mb", 16384));
            gpu.memoryUsedMb = static_cast<unsigned long long>(numberOf(line, "memory_used_mb", 0));
            gpu.utilization = static_cast<unsigned int>(numberOf(line, "utilization", 0));
            gpu.temperature = static_cast<unsigned int>(numberOf(line, "temperature", 40));
            gpu.powerMw = numberOf(line, "power_mw", 100000);
            gpu.lost = numberOf(line, "lost", 0) != 0;
            state.gpus.push_back(gpu);
        } else if (line.rfind("process ", 0) == 0) {
            Process process;
            process.uuid = valueOf(line, "uuid");
            process.gpu = static_cast<int>(numberOf(line, "gpu", -1));
            process.pid = static_cast<unsigned int>(numberOf(line, "pid", 0));
            state.processes.push_back(process);
        }
    }
    std::fclose(file);
    gState = std::move(state);
}

void* handleFor(const std::string& uuid) {
    for (std::size_t i = 0; i < gHandles.size(); ++i) {
        if (gHandles[i] == uuid) {
            return reinterpret_cast<void*>(i + 1);
        }
    }
    gHandles.push_back(uuid);
    return reinterpret_cast<void*>(gHandles.size());
}

// The card a handle names now, or null when its line is gone or marked lost.
const Gpu* cardOf(void* handle, int* code) {
    const std::size_t position = reinterpret_cast<std::size_t>(handle);
    if (!gInitialised) {
        *code = kUninitialized;
        return nullptr;
    }
    if (position == 0 || position > gHandles.size()) {
        *code = kInvalidArgument;
        return nullptr;
    }
    for (const Gpu& gpu : gState.gpus) {
        if (gpu.uuid == gHandles[position - 1]) {
            *code = gpu.lost ? kGpuIsLost : kSuccess;
            return gpu.lost ? nullptr : &gpu;
        }
    }
    *code = kGpuIsLost;
    return nullptr;
}

int copyText(const std::string& text, char* out, unsigned int length) {
    if (text.size() + 1 > length) {
        return kInsufficientSize;
    }
    std::memcpy(out, text.c_str(), text.size() + 1);
    return kSuccess;
}

template <typename Info>
int processes(void* handle, unsigned int* count, Info* infos) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    if (gpu == nullptr) {
        return code;
    }
    int index = 0;
    while (&gState.gpus[static_cast<std::size_t>(index)] != gpu) {
        ++index;
    }
    std::vector<unsigned int> pids;
    for (const Process& p : gState.processes) {
        if (p.uuid == gpu->uuid || p.gpu == index) {
            pids.push_back(p.pid);
        }
    }
    if (pids.size() > *count) {
        *count = static_cast<unsigned int>(pids.size());
        return kInsufficientSize;
    }
    *count = static_cast<unsigned int>(pids.size());
    for (std::size_t i = 0; i < pids.size(); ++i) {
        infos[i] = Info{};
        infos[i].pid = pids[i];
        infos[i].usedGpuMemory = 256 * kMb;
    }
    return kSuccess;
}

struct ProcessInfoV1 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
};

struct ProcessInfoV2 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
};

}  // namespace

extern "C" {

struct nvmlMemory_t {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

struct nvmlUtilization_t {
    unsigned int gpu;
    unsigned int memory;
};

int nvmlInit_v2() {
    std::lock_guard lock(gMutex);
    refresh();
    gInitialised = gState.initError == kSuccess;
    return gState.initError;
}

int nvmlShutdown() {
    std::lock_guard lock(gMutex);
    gInitialised = false;
    return kSuccess;
}

const char* nvmlErrorString(int code) {
    switch (code) {
        case kSuccess:
            return "Success";
        case kUninitialized:
            return "Uninitialized";
        case kInvalidArgument:
            return "Invalid Argument";
        case kNotSupported:
            return "Not Supported";
        case kInsufficientSize:
            return "Insufficient Size";
        case 9:
            return "Driver Not Loaded";
        case kGpuIsLost:
            return "GPU is lost";
        default:
            return "Unknown Error";
    }
}

int nvmlDeviceGetCount_v2(unsigned int* count) {
    std::lock_guard lock(gMutex);
    if (!gInitialised) {
        return kUninitialized;
    }
    refresh();
    *count = static_cast<unsigned int>(gState.gpus.size());
    return kSuccess;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** handle) {
    std::lock_guard lock(gMutex);
    if (!gInitialised) {
        return kUninitialized;
    }
    if (index >= gState.gpus.size()) {
        return kInvalidArgument;
    }
    *handle = handleFor(gState.gpus[index].uuid);
    return kSuccess;
}

int nvmlDeviceGetUUID(void* handle, char* uuid, unsigned int length) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    return gpu ? copyText(gpu->uuid, uuid, length) : code;
}

int nvmlDeviceGetName(void* handle, char* name, unsigned int length) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    return gpu ? copyText(gpu->name, name, length) : code;
}

int nvmlDeviceGetMemoryInfo(void* handle, nvmlMemory_t* memory) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    if (gpu == nullptr) {
        return code;
    }
    memory->total = gpu->memoryTotalMb * kMb;
    memory->used = gpu->memoryUsedMb * kMb;
    memory->free = memory->total - memory->used;
    return kSuccess;
}

int nvmlDeviceGetUtilizationRates(void* handle, nvmlUtilization_t* utilization) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    if (gpu == nullptr) {
        return code;
    }
    utilization->gpu = gpu->utilization;
    utilization->memory = gpu->utilization / 2;
    return kSuccess;
}

int nvmlDeviceGetTemperature(void* handle, int sensor, unsigned int* temperature) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    if (gpu == nullptr) {
        return code;
    }
    if (sensor != 0) {
        return kInvalidArgument;
    }
    *temperature = gpu->temperature;
    return kSuccess;
}

int nvmlDeviceGetPowerUsage(void* handle, unsigned int* milliwatts) {
    std::lock_guard lock(gMutex);
    int code = kSuccess;
    const Gpu* gpu = cardOf(handle, &code);
    if (gpu == nullptr) {
        return code;
    }
    if (gpu->powerMw < 0) {
        return kNotSupported;
    }
    *milliwatts = static_cast<unsigned int>(gpu->powerMw);
    return kSuccess;
}

int nvmlDeviceGetComputeRunningProcesses(void* handle, unsigned int* count, ProcessInfoV1* infos) {
    return processes(handle, count, infos);
}

#ifndef TUNEDECK_FAKE_NVML_LEGACY
int nvmlDeviceGetComputeRunningProcesses_v2(void* handle, unsigned int* count,
                                            ProcessInfoV2* infos) {
    return processes(handle, count, infos);
}

int nvmlDeviceGetComputeRunningProcesses_v3(void* handle, unsigned int* count,
                                            ProcessInfoV2* infos) {
    return processes(handle, count, infos);
}
#endif

}  // extern "C"
