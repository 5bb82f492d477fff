#include "process_stats.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>

extern char** environ;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (std::string& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

}  // namespace

long residentKb(int pid) {
    std::FILE* status = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
    if (status == nullptr) {
        return 0;
    }
    char line[256];
    long kb = 0;
    while (std::fgets(line, sizeof(line), status) != nullptr) {
        if (std::sscanf(line, "VmRSS: %ld kB", &kb) == 1) {
            break;
        }
    }
    std::fclose(status);
    return kb;
}

ProcessStats runMeasured(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         bool quiet, const std::function<void(int pid)>& sample) {
    std::vector<std::string> args = argv;
    std::vector<std::string> environment;
    for (char** e = environ; *e != nullptr; ++e) {
        environment.emplace_back(*e);
    }
    environment.insert(environment.end(), env.begin(), env.end());
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (quiet) {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    std::vector<char*> argp = pointers(args);
    std::vector<char*> envp = pointers(environment);
    ProcessStats stats;
    if (posix_spawnp(&pid, argp[0], &actions, nullptr, argp.data(), envp.data()) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return stats;
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    struct rusage usage = {};
    while (sample && wait4(pid, &status, WNOHANG, &usage) == 0) {
        sample(int(pid));
        usleep(200 * 1000);
    }
    if (!sample) {
        wait4(pid, &status, 0, &usage);
    }
    stats.wallSeconds = secondsSince(start);
    stats.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    stats.peakRssKb = usage.ru_maxrss;
    stats.cpuSeconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    return stats;
}

double runFloor(const std::string& trainable, const std::string& configJson, int count,
                int concurrency) {
    struct Child {
        pid_t pid;
        int fromChild;
        int toChild;
        std::string buffer;
    };
    std::map<int, Child> running;  // by fromChild fd
    int started = 0;
    const auto start = std::chrono::steady_clock::now();
    const std::string answer = "{\"action\":\"continue\"}\n";
    while (started < count || !running.empty()) {
        while (started < count && int(running.size()) < concurrency) {
            int down[2], up[2];
            if (pipe(down) != 0 || pipe(up) != 0) {
                return -1;
            }
            const pid_t pid = fork();
            if (pid == 0) {
                close(down[1]);
                close(up[0]);
                const std::string channel = std::to_string(down[0]) + "," + std::to_string(up[1]);
                setenv("TUNEDECK_CHANNEL", channel.c_str(), 1);
                setenv("TUNEDECK_CONFIG", configJson.c_str(), 1);
                execl(trainable.c_str(), trainable.c_str(), static_cast<char*>(nullptr));
                _exit(127);
            }
            close(down[0]);
            close(up[1]);
            running[up[0]] = {pid, up[0], down[1], {}};
            ++started;
        }
        std::vector<pollfd> fds;
        for (const auto& [fd, child] : running) {
            fds.push_back({fd, POLLIN, 0});
        }
        poll(fds.data(), fds.size(), 1000);
        for (const pollfd& p : fds) {
            if ((p.revents & (POLLIN | POLLHUP)) == 0) {
                continue;
            }
            Child& child = running[p.fd];
            char data[65536];
            const ssize_t n = read(p.fd, data, sizeof(data));
            if (n <= 0) {
                close(child.fromChild);
                close(child.toChild);
                waitpid(child.pid, nullptr, 0);
                running.erase(p.fd);
                continue;
            }
            child.buffer.append(data, size_t(n));
            size_t newline;
            while ((newline = child.buffer.find('\n')) != std::string::npos) {
                const bool isReport = child.buffer.compare(0, newline, "") != 0 &&
                                      child.buffer.find("\"report\"") < newline;
                child.buffer.erase(0, newline + 1);
                if (isReport && write(child.toChild, answer.data(), answer.size()) < 0) {
                    break;
                }
            }
        }
    }
    return secondsSince(start);
}
