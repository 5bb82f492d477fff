#include "worker/gpu_monitor.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace tunedeck::worker {

namespace {

constexpr long long kBytesPerMb = 1024LL * 1024LL;

std::string_view trimmedToken(std::string_view token) {
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front()))) {
        token.remove_prefix(1);
    }
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) {
        token.remove_suffix(1);
    }
    return token;
}

bool allDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

}  // namespace

GpuMonitor::GpuMonitor() {
    std::string why;
    bool driverFound = false;
    m_nvml = nvml::Library::open(&why, &driverFound);
    if (!m_nvml) {
        addNote(why);
        if (driverFound) {
            // A node with a driver that does not answer is worth a line where the user looks:
            // the engine forwards the agent's stderr.
            std::fprintf(stderr, "tunedeck-worker: %s; this node offers no GPUs\n", why.c_str());
        }
        return;
    }
    takeInventory();
}

GpuMonitor::~GpuMonitor() = default;

void GpuMonitor::addNote(const std::string& text) {
    m_note += (m_note.empty() ? "" : "; ") + text;
}

void GpuMonitor::takeInventory() {
    unsigned int count = 0;
    if (const nvml::Return code = m_nvml->deviceCount(&count); code != nvml::kSuccess) {
        addNote("NVML could not count the GPUs: " + m_nvml->errorString(code));
        return;
    }
    m_driverCount = count;
    std::vector<Card> found;
    for (unsigned int i = 0; i < count; ++i) {
        Card card;
        card.info.index = static_cast<int>(i);
        nvml::Return code = m_nvml->deviceByIndex(i, &card.device);
        if (code == nvml::kSuccess) {
            code = m_nvml->uuid(card.device, &card.info.uuid);
        }
        nvml::Memory memory{};
        if (code == nvml::kSuccess) {
            code = m_nvml->memory(card.device, &memory);
        }
        if (code != nvml::kSuccess) {
            // Not offered: a trial placed there would only fail.
            addNote("GPU " + std::to_string(i) +
                    (card.info.uuid.empty() ? "" : " " + card.info.uuid) +
                    " is not offered: " + m_nvml->errorString(code));
            continue;
        }
        if (m_nvml->name(card.device, &card.info.name) != nvml::kSuccess) {
            card.info.name = "NVIDIA GPU";
        }
        card.info.memoryMb = static_cast<long long>(memory.total / kBytesPerMb);
        found.push_back(std::move(card));
    }
    restrictToVisibleDevices(std::move(found));
}

// CUDA's own reading of the variable: a comma-separated list of NVML indices or UUIDs (a unique
// prefix of one, "GPU-..."); the first entry that names no card ends the list; set but empty
// hides every card. Indices are NVML's (PCI bus order), as CUDA_DEVICE_ORDER=PCI_BUS_ID makes
// CUDA's; UUIDs are unambiguous either way.
void GpuMonitor::restrictToVisibleDevices(std::vector<Card> found) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    if (visible == nullptr) {
        m_cards = std::move(found);
    } else {
        std::string_view rest(visible);
        std::vector<bool> taken(found.size(), false);
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            const std::string_view token = trimmedToken(rest.substr(0, comma));
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
            std::vector<std::size_t> matches;
            const long index = allDigits(token) && token.size() < 9
                                   ? std::strtol(std::string(token).c_str(), nullptr, 10)
                                   : -1;
            for (std::size_t i = 0; i < found.size(); ++i) {
                const bool byIndex = index >= 0 && found[i].info.index == index;
                const bool byUuid =
                    token.size() >= 4 && token.substr(0, 4) == "GPU-" &&
                    std::string_view(found[i].info.uuid).substr(0, token.size()) == token;
                if (byIndex || byUuid) {
                    matches.push_back(i);
                }
            }
            if (matches.size() != 1) {
                break;  // CUDA stops at an entry it cannot resolve to exactly one card
            }
            if (!taken[matches.front()]) {
                taken[matches.front()] = true;
                m_cards.push_back(found[matches.front()]);
            }
        }
    }
    for (const Card& card : m_cards) {
        m_offered.push_back(card.info);
    }
}

bool GpuMonitor::lostOn(nvml::Return code, Card& card, std::vector<GpuLoss>* newlyLost) {
    if (code != nvml::kErrorGpuIsLost) {
        return false;
    }
    card.lost = true;
    newlyLost->push_back({card.info.index, card.info.uuid, "NVML: " + m_nvml->errorString(code)});
    return true;
}

void GpuMonitor::relocateCards(unsigned int count, std::vector<GpuLoss>* newlyLost) {
    std::vector<std::pair<std::string, nvml::Device>> present;
    for (unsigned int i = 0; i < count; ++i) {
        nvml::Device device = nullptr;
        std::string uuid;
        if (m_nvml->deviceByIndex(i, &device) == nvml::kSuccess &&
            m_nvml->uuid(device, &uuid) == nvml::kSuccess) {
            present.emplace_back(uuid, device);
        }
    }
    for (Card& card : m_cards) {
        if (card.lost) {
            continue;
        }
        const auto match = std::find_if(present.begin(), present.end(),
                                        [&](const auto& p) { return p.first == card.info.uuid; });
        if (match != present.end()) {
            card.device = match->second;
            continue;
        }
        card.lost = true;
        newlyLost->push_back({card.info.index, card.info.uuid,
                              "the driver no longer lists it (" + std::to_string(m_driverCount) +
                                  " GPUs before, " + std::to_string(count) + " now)"});
    }
}

std::vector<GpuReading> GpuMonitor::sample(std::vector<GpuLoss>* newlyLost) {
    std::vector<GpuReading> readings;
    if (!m_nvml) {
        return readings;
    }
    unsigned int count = 0;
    if (m_nvml->deviceCount(&count) == nvml::kSuccess && count != m_driverCount) {
        relocateCards(count, newlyLost);
        m_driverCount = count;
    }
    readings.reserve(m_cards.size());
    for (Card& card : m_cards) {
        GpuReading r;
        r.index = card.info.index;
        r.uuid = card.info.uuid;
        r.name = card.info.name;
        r.memoryTotalMb = card.info.memoryMb;
        if (!card.lost) {
            nvml::Memory memory{};
            nvml::Return code = m_nvml->memory(card.device, &memory);
            if (code == nvml::kSuccess) {
                r.memoryUsedMb = static_cast<long long>(memory.used / kBytesPerMb);
                r.memoryTotalMb = static_cast<long long>(memory.total / kBytesPerMb);
            }
            nvml::Utilization utilization{};
            if (!lostOn(code, card, newlyLost)) {
                code = m_nvml->utilization(card.device, &utilization);
                if (code == nvml::kSuccess) {
                    r.utilizationPercent = utilization.gpu;
                }
            }
            unsigned int value = 0;
            if (!card.lost && !lostOn(code, card, newlyLost)) {
                code = m_nvml->temperatureC(card.device, &value);
                if (code == nvml::kSuccess) {
                    r.temperatureC = value;
                }
            }
            if (!card.lost && !lostOn(code, card, newlyLost)) {
                code = m_nvml->powerMilliwatts(card.device, &value);
                if (code == nvml::kSuccess) {
                    r.powerW = value / 1000.0;
                }
            }
            if (!card.lost && !lostOn(code, card, newlyLost)) {
                code = m_nvml->computeProcesses(card.device, &r.processes);
                lostOn(code, card, newlyLost);
            }
        }
        if (card.lost) {
            // What a lost card last said is stale; it is shown as lost, with nothing on it.
            r = GpuReading{r.index, r.uuid, r.name, {}, {}, {}, 0, r.memoryTotalMb, {}, true};
        }
        readings.push_back(std::move(r));
    }
    return readings;
}

}  // namespace tunedeck::worker
