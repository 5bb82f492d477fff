#include "worker/inventory.h"

#include <sched.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <climits>

#include "tunedeck/version.h"

namespace tunedeck::worker {

namespace {

std::string hostName() {
    char name[HOST_NAME_MAX + 1] = {};
    if (::gethostname(name, sizeof name - 1) != 0) {
        return "unknown";
    }
    return name;
}

int usableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0) {
        const int count = CPU_COUNT(&set);
        if (count > 0) {
            return count;
        }
    }
    const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<int>(online) : 1;
}

long long totalMemoryMb() {
    struct sysinfo info {};
    if (::sysinfo(&info) != 0) {
        return 0;
    }
    const unsigned long long bytes = static_cast<unsigned long long>(info.totalram) *
                                     static_cast<unsigned long long>(info.mem_unit);
    return static_cast<long long>(bytes / (1024ULL * 1024ULL));
}

}  // namespace

NodeInventory takeInventory(std::vector<GpuInfo> gpus, std::string gpuNote) {
    NodeInventory inventory;
    inventory.hostname = hostName();
    inventory.cpus = usableCpus();
    inventory.memoryMb = totalMemoryMb();
    inventory.gpus = std::move(gpus);
    inventory.gpuNote = std::move(gpuNote);
    return inventory;
}

node::Hello helloEvent(const NodeInventory& inventory) {
    node::Hello hello;
    hello.version = TUNEDECK_VERSION;
    hello.commit = TUNEDECK_GIT_COMMIT;
    hello.pid = static_cast<std::int64_t>(::getpid());
    hello.hostname = inventory.hostname;
    hello.cpus = inventory.cpus;
    hello.memoryMb = inventory.memoryMb;
    for (const GpuInfo& gpu : inventory.gpus) {
        hello.gpus.push_back({gpu.index, gpu.uuid, gpu.name, gpu.memoryMb});
    }
    hello.gpuNote = inventory.gpuNote;
    return hello;
}

}  // namespace tunedeck::worker
