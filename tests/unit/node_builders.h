// Builders shared by the unit tests of placement, gangs and fair sharing: a node as its agent
// would describe it (CPUs, whole cards named as CUDA_VISIBLE_DEVICES would name them).
#pragma once

#include <QString>

#include "core/placement.h"

inline tunedeck::NodeCapacity nodeWith(const QString& id, double cpus, int gpus = 0,
                                       bool alive = true) {
    tunedeck::NodeCapacity n;
    n.nodeId = id;
    n.alive = alive;
    n.cpuTotalMilli = tunedeck::toMilli(cpus);
    n.gpuUsedMilli.assign(static_cast<std::size_t>(gpus), 0);
    for (int i = 0; i < gpus; ++i) {
        n.gpuIds.push_back(QStringLiteral("GPU-%1").arg(i));
    }
    return n;
}
