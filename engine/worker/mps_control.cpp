#include "worker/mps_control.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace tunedeck::worker {

namespace {

constexpr const char* kControlProgram = "nvidia-cuda-mps-control";
constexpr const char* kFolderPrefix = "tunedeck-mps.";
constexpr auto kControlPatience = std::chrono::seconds(10);  // `-d` and `quit` take milliseconds

std::string pipeDir(const std::string& root) {
    return root + "/pipe";
}

std::string logDir(const std::string& root) {
    return root + "/log";
}

// The agent's environment with the daemon's folders set.
std::vector<std::string> controlEnvironment(const std::string& root) {
    std::vector<std::string> entries;
    for (char** e = environ; *e != nullptr; ++e) {
        if (std::strncmp(*e, "CUDA_MPS_PIPE_DIRECTORY=", 24) != 0 &&
            std::strncmp(*e, "CUDA_MPS_LOG_DIRECTORY=", 23) != 0) {
            entries.emplace_back(*e);
        }
    }
    entries.push_back("CUDA_MPS_PIPE_DIRECTORY=" + pipeDir(root));
    entries.push_back("CUDA_MPS_LOG_DIRECTORY=" + logDir(root));
    return entries;
}

struct Outcome {
    bool ok = false;
    std::string why;  // when not ok
};

// Runs the control program with `argument` (or none), `input` on its stdin, its output into
// `outputPath`; waits for it, killing it after kControlPatience.
Outcome runControl(const std::string& root, const char* argument, const std::string& input,
                   const std::string& outputPath) {
    int stdinPipe[2];
    if (::pipe2(stdinPipe, O_CLOEXEC) != 0) {
        return {false, std::string("cannot create a pipe: ") + std::strerror(errno)};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0);
    posix_spawn_file_actions_addopen(&actions, 1, outputPath.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> env = controlEnvironment(root);
    std::vector<char*> envp;
    for (std::string& entry : env) {
        envp.push_back(entry.data());
    }
    envp.push_back(nullptr);
    std::string program = kControlProgram;
    std::string arg = argument ? argument : "";
    std::vector<char*> argv{program.data()};
    if (argument) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int spawned =
        ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(stdinPipe[0]);
    if (spawned != 0) {
        ::close(stdinPipe[1]);
        return {false, std::string(kControlProgram) + ": " + std::strerror(spawned)};
    }
    // A few bytes: the pipe holds them whether or not the program reads.
    if (!input.empty() && ::write(stdinPipe[1], input.data(), input.size()) < 0) {
        // It exited already; its status says why.
    }
    ::close(stdinPipe[1]);

    const auto deadline = std::chrono::steady_clock::now() + kControlPatience;
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) {
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return {false, std::string(kControlProgram) + " did not answer within 10 s"};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return {true, {}};
    }
    std::ifstream output(outputPath);
    std::stringstream said;
    said << output.rdbuf();
    std::string text = said.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    std::string why = std::string(kControlProgram) + " failed (" +
                      (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                         : "killed by signal " + std::to_string(WTERMSIG(status))) +
                      ")";
    if (!text.empty()) {
        why += ": " + text.substr(0, 300);
    }
    return {false, why};
}

// The pid in `root`/agent.pid, or 0.
pid_t agentOf(const std::string& root) {
    std::ifstream file(root + "/agent.pid");
    long long pid = 0;
    return file >> pid && pid > 0 ? static_cast<pid_t>(pid) : 0;
}

// Stops the daemons of this user's agents that died without stopping theirs (SIGKILL, a crash)
// and removes their folders. A folder without agent.pid yet is another agent starting: left.
void stopOrphans() {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/tmp", error)) {
        const std::string name = entry.path().filename().string();
        struct stat info {};
        if (name.rfind(kFolderPrefix, 0) != 0 || ::lstat(entry.path().c_str(), &info) != 0 ||
            !S_ISDIR(info.st_mode) || info.st_uid != ::getuid()) {
            continue;
        }
        const std::string root = entry.path().string();
        const pid_t agent = agentOf(root);
        if (agent == 0 || ::kill(agent, 0) == 0 || errno != ESRCH) {
            continue;
        }
        runControl(root, nullptr, "quit\n", root + "/control.out");
        std::filesystem::remove_all(root, error);
    }
}

}  // namespace

MpsControl::~MpsControl() {
    stop();
}

std::optional<std::string> MpsControl::start() {
    if (running()) {
        return std::nullopt;
    }
    stopOrphans();
    // Short: the daemon's socket path inside it must fit a sockaddr_un (108 bytes).
    std::string pattern = std::string("/tmp/") + kFolderPrefix + "XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        return std::string("cannot create a folder for the MPS daemon: ") + std::strerror(errno);
    }
    const std::string root = pattern;
    std::error_code error;
    std::filesystem::create_directory(pipeDir(root), error);
    std::filesystem::create_directory(logDir(root), error);
    std::ofstream(root + "/agent.pid") << ::getpid() << '\n';
    if (error) {
        std::filesystem::remove_all(root, error);
        return "cannot create the MPS daemon's folders in " + root;
    }
    const Outcome started = runControl(root, "-d", {}, root + "/control.out");
    if (!started.ok) {
        std::filesystem::remove_all(root, error);
        return started.why;
    }
    m_root = root;
    return std::nullopt;
}

void MpsControl::stop() {
    if (!running()) {
        return;
    }
    // quit ends the daemon and its server; the trials are gone by now.
    runControl(m_root, nullptr, "quit\n", m_root + "/control.out");
    std::error_code error;
    std::filesystem::remove_all(m_root, error);
    m_root.clear();
}

std::vector<std::pair<std::string, std::string>> MpsControl::clientEnvironment() const {
    if (!running()) {
        return {};
    }
    return {{"CUDA_MPS_PIPE_DIRECTORY", pipeDir(m_root)},
            {"CUDA_MPS_LOG_DIRECTORY", logDir(m_root)}};
}

}  // namespace tunedeck::worker
