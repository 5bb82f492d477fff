// NVIDIA's Multi-Process Service (MPS) for one agent's GPU trials. Without it, processes that share
// a card take turns on it (time slicing): four small trials on one GPU then finish no sooner than
// one after another. Through an MPS server their kernels run side by side. The agent starts a
// control daemon of its own (`nvidia-cuda-mps-control -d`), with its pipe and log folders in a
// fresh temporary folder, points each GPU trial at it (CUDA_MPS_PIPE_DIRECTORY), and stops it
// when the agent exits. The folder names its agent (agent.pid): a daemon whose agent was killed
// before it could stop it is stopped by the next agent that starts one. Not thread-safe: used
// from the agent's loop.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tunedeck::worker {

class MpsControl {
  public:
    MpsControl() = default;
    MpsControl(const MpsControl&) = delete;
    MpsControl& operator=(const MpsControl&) = delete;
    ~MpsControl();  // stop()

    // Starts the daemon (nothing when it runs already), after stopping those of agents that are
    // gone. Returns why it could not start: the trials then share their cards by time slicing.
    std::optional<std::string> start();
    // Asks the daemon to quit (its server ends with it) and removes its folders.
    void stop();
    bool running() const { return !m_root.empty(); }

    // What a trial on a GPU needs in its environment to reach the daemon; empty when it is not
    // running.
    std::vector<std::pair<std::string, std::string>> clientEnvironment() const;

  private:
    std::string m_root;  // the temporary folder; empty when not running
};

}  // namespace tunedeck::worker
