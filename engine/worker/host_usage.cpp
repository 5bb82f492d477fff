#include "worker/host_usage.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "worker/proc_files.h"

namespace tunedeck::worker {

namespace {

// The value in kB of `key` ("MemTotal:") in /proc/meminfo text, or -1.
long long meminfoKb(const std::string& text, const char* key) {
    const std::size_t at = text.find(key);
    if (at == std::string::npos) {
        return -1;
    }
    return std::strtoll(text.c_str() + at + std::strlen(key), nullptr, 10);
}

}  // namespace

std::optional<HostUsage::CpuTimes> HostUsage::readCpuTimes() {
    const std::string text = readProcFile("/proc/stat");
    if (text.compare(0, 4, "cpu ") != 0) {
        return std::nullopt;
    }
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    const char* cursor = text.c_str() + 4;
    std::uint64_t fields[8] = {};
    for (std::uint64_t& field : fields) {
        char* end = nullptr;
        field = std::strtoull(cursor, &end, 10);
        if (end == cursor) {
            break;
        }
        cursor = end;
    }
    CpuTimes times;
    for (const std::uint64_t field : fields) {
        times.total += field;
    }
    times.busy = times.total - fields[3] - fields[4];
    return times;
}

void HostUsage::restart() {
    m_previous = readCpuTimes();
}

HostReading HostUsage::read() {
    HostReading reading;
    const std::optional<CpuTimes> now = readCpuTimes();
    if (now && m_previous && now->total > m_previous->total && now->busy >= m_previous->busy) {
        const double busy = static_cast<double>(now->busy - m_previous->busy);
        const double total = static_cast<double>(now->total - m_previous->total);
        reading.cpuPercent = std::min(100.0, std::max(0.0, 100.0 * busy / total));
    }
    if (now) {
        m_previous = now;
    }
    const std::string meminfo = readProcFile("/proc/meminfo");
    const long long totalKb = meminfoKb(meminfo, "MemTotal:");
    const long long availableKb = meminfoKb(meminfo, "MemAvailable:");
    if (totalKb > 0) {
        reading.memoryTotalMb = totalKb / 1024;
        reading.memoryUsedMb = availableKb >= 0 ? (totalKb - availableKb) / 1024 : 0;
    }
    return reading;
}

}  // namespace tunedeck::worker
