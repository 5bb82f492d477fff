// What a node offers to trials, reported once in the `hello` event: host name, usable CPUs,
// memory and GPUs (found by GpuMonitor). Functions read the system on each call; safe from any
// thread.
#pragma once

#include <string>
#include <vector>

#include "node_protocol/node_protocol.h"

namespace tunedeck::worker {

struct GpuInfo {
    int index = 0;
    std::string uuid;  // what CUDA_VISIBLE_DEVICES takes
    std::string name;
    long long memoryMb = 0;
};

struct NodeInventory {
    std::string hostname;
    int cpus = 1;  // the CPUs this process may run on (its affinity), not all the machine has
    long long memoryMb = 0;
    std::vector<GpuInfo> gpus;
    std::string gpuNote;  // why GPUs are missing (no driver, ...); empty when nothing is amiss
};

// The host's CPUs and memory, with the GPUs the agent's GpuMonitor offers.
NodeInventory takeInventory(std::vector<GpuInfo> gpus, std::string gpuNote);

// The `hello` event: the inventory plus the worker's version and pid.
node::Hello helloEvent(const NodeInventory& inventory);

}  // namespace tunedeck::worker
