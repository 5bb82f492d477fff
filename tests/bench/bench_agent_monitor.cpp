// The node agent's own CPU cost of usage monitoring: tunedeck-worker runs against the fake NVML
// driver (8 GPUs, some trials holding cards) once without sampling and once sampling every 2 s
// (gpu_sample_s' default), and its CPU time over the same wall time is read from
// /proc/PID/stat (user + system, every thread) and printed side by side as % of one core.
// Goal: under 1% with monitoring on. `--smoke` runs a few seconds of each, so ctest keeps the
// benchmark working; it asserts no figure. `--system-nvml` measures the agent against this
// machine's own driver and GPUs instead (the trials then hold no card; --gpus is ignored).
//
//   bench_agent_monitor [--smoke] [--system-nvml] [--seconds S] [--gpus N] [--trials N]
//                       [--interval S]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

struct Options {
    double seconds = 60;
    int gpus = 8;
    int trials = 4;
    double interval = 2;
    bool systemNvml = false;  // the machine's libnvidia-ml, not the fake
};

struct Measurement {
    double cpuPercent = 0;    // of one core, over the measured window (/proc/PID/stat, 10 ms ticks)
    double cpuPercentNs = 0;  // the same from the scheduler's nanosecond counts (schedstat)
    int samples = 0;          // usage events the agent wrote
    bool ok = false;
};

// utime + stime of a process (fields 14 and 15 of /proc/PID/stat), in clock ticks.
long long cpuTicks(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos) {
        return -1;
    }
    std::istringstream fields(text.substr(close + 2));  // from field 3, the state
    std::string field;
    long long utime = 0;
    long long stime = 0;
    for (int number = 3; number <= 15 && fields >> field; ++number) {
        if (number == 14) {
            utime = std::atoll(field.c_str());
        } else if (number == 15) {
            stime = std::atoll(field.c_str());
        }
    }
    return utime + stime;
}

// CPU time of every thread of a process in nanoseconds (/proc/PID/task/*/schedstat, first
// field): the same quantity as above at a resolution that a few seconds can show.
long long cpuNanoseconds(pid_t pid) {
    long long total = 0;
    std::error_code error;
    for (const auto& task :
         std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
        std::ifstream schedstat(task.path() / "schedstat");
        long long ns = 0;
        if (schedstat >> ns) {
            total += ns;
        }
    }
    return total;
}

void writeAll(int fd, const std::string& text) {
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n <= 0) {
            return;
        }
        written += static_cast<std::size_t>(n);
    }
}

std::string jsonString(const std::string& text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "\"";
}

std::string makeTempDir() {
    std::error_code error;
    std::string pattern =
        (std::filesystem::temp_directory_path(error) / "bench_agent_monitor.XXXXXX").string();
    const char* dir = ::mkdtemp(pattern.data());
    return dir ? dir : "";
}

Measurement measure(const Options& options, bool monitoring) {
    Measurement m;
    const std::string dir = makeTempDir();
    if (dir.empty()) {
        return m;
    }
    const std::string state = dir + "/nvml.state";
    if (!options.systemNvml) {
        std::ofstream file(state);
        for (int i = 0; i < options.gpus; ++i) {
            file << "gpu uuid=GPU-bench-" << i << " name=Fake_H100 memory_total_mb=81920"
                 << " memory_used_mb=" << 1024 * (i + 1) << " utilization=" << 10 * i
                 << " temperature=" << 40 + i << " power_mw=" << 100000 + 1000 * i << "\n";
        }
    }
    int input[2];
    if (::pipe(input) != 0) {
        return m;
    }
    const std::string eventsPath = dir + "/events.jsonl";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    posix_spawn_file_actions_addclose(&actions, input[1]);
    posix_spawn_file_actions_addopen(&actions, 1, eventsPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<std::string> environment;
    for (char** e = environ; *e != nullptr; ++e) {
        const bool loaderPath = std::strncmp(*e, "LD_LIBRARY_PATH=", 16) == 0;
        if ((options.systemNvml || !loaderPath) &&
            std::strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21) != 0) {
            environment.emplace_back(*e);
        }
    }
    if (!options.systemNvml) {
        environment.push_back("LD_LIBRARY_PATH=" TUNEDECK_FAKE_NVML_DIR);
        environment.push_back("TUNEDECK_FAKE_NVML_STATE=" + state);
    }
    std::vector<char*> envp;
    for (std::string& e : environment) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    std::string worker = TUNEDECK_BIN_DIR "/tunedeck-worker";
    char* argv[] = {worker.data(), nullptr};
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, worker.c_str(), &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(input[0]);
    if (spawned != 0) {
        ::close(input[1]);
        return m;
    }
    // Each trial tells the fake driver it holds a card (as a CUDA process would), then sleeps.
    std::string ops;
    for (int t = 0; t < options.trials; ++t) {
        const std::string trialDir = dir + "/t" + std::to_string(t);
        const std::string script = options.systemNvml
                                       ? std::string("exec sleep 100000")
                                       : "echo \"process gpu=" + std::to_string(t % options.gpus) +
                                             " pid=$$\" >> " + state + "; exec sleep 100000";
        ops += R"({"op":"start","trial":"t)" + std::to_string(t) + R"(","argv":["sh","-c",)" +
               jsonString(script) + R"(],"trial_dir":)" + jsonString(trialDir) + "}\n";
    }
    if (monitoring) {
        ops += R"({"op":"monitor","interval_s":)" + std::to_string(options.interval) + "}\n";
    }
    writeAll(input[1], ops);
    std::this_thread::sleep_for(std::chrono::seconds(1));  // trials started, first reads done
    const long long before = cpuTicks(pid);
    const long long beforeNs = cpuNanoseconds(pid);
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
    const long long after = cpuTicks(pid);
    const long long afterNs = cpuNanoseconds(pid);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::close(input[1]);  // the agent stops its trials and exits
    int status = 0;
    ::waitpid(pid, &status, 0);

    std::ifstream events(eventsPath);
    std::string line;
    while (std::getline(events, line)) {
        m.samples += line.find(R"("ev":"usage")") != std::string::npos ? 1 : 0;
    }
    const double ticksPerSecond = static_cast<double>(::sysconf(_SC_CLK_TCK));
    m.cpuPercent = 100.0 * static_cast<double>(after - before) / ticksPerSecond / wall;
    m.cpuPercentNs = 100.0 * static_cast<double>(afterNs - beforeNs) / 1e9 / wall;
    m.ok = before >= 0 && after >= before && WIFEXITED(status);
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--smoke") {
            options.seconds = 4;
        } else if (arg == "--system-nvml") {
            options.systemNvml = true;
        } else if (arg == "--seconds" && hasValue) {
            options.seconds = std::atof(argv[++i]);
        } else if (arg == "--gpus" && hasValue) {
            options.gpus = std::atoi(argv[++i]);
        } else if (arg == "--trials" && hasValue) {
            options.trials = std::atoi(argv[++i]);
        } else if (arg == "--interval" && hasValue) {
            options.interval = std::atof(argv[++i]);
        } else {
            std::fprintf(stderr,
                         "usage: bench_agent_monitor [--smoke] [--system-nvml] [--seconds S] "
                         "[--gpus N] [--trials N] [--interval S]\n");
            return 2;
        }
    }
    if (options.systemNvml) {
        std::printf(
            "tunedeck-worker CPU time over %.0f s, this machine's NVML and GPUs, %d "
            "trials running\n",
            options.seconds, options.trials);
    } else {
        std::printf(
            "tunedeck-worker CPU time over %.0f s, fake NVML with %d GPUs, %d trials on them\n",
            options.seconds, options.gpus, options.trials);
    }
    const Measurement off = measure(options, false);
    const Measurement on = measure(options, true);
    if (!off.ok || !on.ok) {
        std::fprintf(stderr, "bench_agent_monitor: the agent could not be measured\n");
        return 1;
    }
    std::printf("%-30s %14s %16s %8s\n", "agent CPU, % of one core", "/proc/PID/stat",
                "task schedstat", "samples");
    std::printf("%-30s %14.3f %16.4f %8d\n", "monitoring off", off.cpuPercent, off.cpuPercentNs,
                off.samples);
    const std::string onLabel =
        "monitoring on, every " + std::to_string(options.interval).substr(0, 4) + " s";
    std::printf("%-30s %14.3f %16.4f %8d\n", onLabel.c_str(), on.cpuPercent, on.cpuPercentNs,
                on.samples);
    std::printf("%-30s %14.3f %16.4f\n", "cost of monitoring", on.cpuPercent - off.cpuPercent,
                on.cpuPercentNs - off.cpuPercentNs);
    std::printf("goal: monitoring on under 1%% of one core: %s\n",
                on.cpuPercent < 1.0 ? "met" : "NOT met");
    // A run that sampled nothing measured nothing: that is a failure, not a figure.
    const int expected = static_cast<int>(options.seconds / options.interval);
    if (on.samples < expected / 2 || off.samples != 0) {
        std::fprintf(stderr,
                     "bench_agent_monitor: %d samples with monitoring on (expected about "
                     "%d), %d with it off\n",
                     on.samples, expected, off.samples);
        return 1;
    }
    return 0;
}
