// The node's GPUs as the agent offers them: found through NVML once at start, restricted by the
// agent's own CUDA_VISIBLE_DEVICES, then read on each sample. A card that stops answering (NVML
// says the GPU is lost, or it drops out of the driver's count) is reported once and read no more:
// a lost card needs a reset, so it stays lost for the agent's life.
// Not thread-safe: built on the event loop's thread (for the hello), then sampled by one thread;
// gpus() and note() never change after construction.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "worker/inventory.h"
#include "worker/nvml_library.h"

namespace tunedeck::worker {

struct GpuReading {
    int index = 0;
    std::string uuid;
    std::string name;
    // Empty when the card does not report it (NVML: not supported), or it is lost.
    std::optional<double> utilizationPercent;
    std::optional<double> temperatureC;
    std::optional<double> powerW;
    long long memoryUsedMb = 0;
    long long memoryTotalMb = 0;
    std::vector<nvml::ComputeProcess> processes;  // compute processes on the card
    bool lost = false;
};

struct GpuLoss {
    int index = 0;
    std::string uuid;
    std::string reason;
};

class GpuMonitor {
  public:
    // Loads NVML and takes the inventory. Without a driver there are no GPUs and note() says why;
    // a driver that is installed but cannot start also says so once on stderr.
    GpuMonitor();
    ~GpuMonitor();
    GpuMonitor(const GpuMonitor&) = delete;
    GpuMonitor& operator=(const GpuMonitor&) = delete;

    // The cards offered, in the order CUDA_VISIBLE_DEVICES names them (NVML's order without it).
    const std::vector<GpuInfo>& gpus() const { return m_offered; }
    // Why fewer cards than the driver has are offered (no driver, NVML failed, a card lost at
    // start); empty when nothing is amiss.
    const std::string& note() const { return m_note; }

    // Reads every offered card; the ones found lost by this call are added to `newlyLost`.
    std::vector<GpuReading> sample(std::vector<GpuLoss>* newlyLost);

  private:
    struct Card {
        GpuInfo info;
        nvml::Device device = nullptr;
        bool lost = false;
    };

    void takeInventory();
    void restrictToVisibleDevices(std::vector<Card> found);
    // The driver's count changed: finds each card again by UUID (indices may have shifted).
    void relocateCards(unsigned int count, std::vector<GpuLoss>* newlyLost);
    // True (and the card marked lost, its loss reported) when `code` says the GPU is gone.
    bool lostOn(nvml::Return code, Card& card, std::vector<GpuLoss>* newlyLost);
    void addNote(const std::string& text);

    std::unique_ptr<nvml::Library> m_nvml;
    std::vector<Card> m_cards;       // the offered cards
    std::vector<GpuInfo> m_offered;  // their inventory, as the hello reports it
    unsigned int m_driverCount = 0;  // the driver's count at the last look
    std::string m_note;
};

}  // namespace tunedeck::worker
