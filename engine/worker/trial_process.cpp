#include "worker/trial_process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "worker/trial_cgroups.h"
#include "worker/trial_owner.h"
#include "worker/tuning.h"

extern char** environ;

namespace tunedeck::worker {

namespace {

// A trial started again (a retry, a resume, a restart after a pause) writes on below its earlier
// attempt's lines: a line between them says where one ends, or two tracebacks read as one.
void markAnotherStart(int logFd) {
    struct stat info {};
    if (::fstat(logFd, &info) != 0 || info.st_size == 0) {
        return;
    }
    char when[32] = "";
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    if (::gmtime_r(&now, &utc) != nullptr) {
        std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &utc);
    }
    const std::string line = std::string("\n--- started again at ") + when +
                             " (the lines above are of its earlier run) ---\n";
    [[maybe_unused]] const ssize_t written = ::write(logFd, line.data(), line.size());
}

// Where the trial finds its channel (TUNEDECK_CHANNEL says so too).
constexpr int kChannelReadFd = 3;
constexpr int kChannelWriteFd = 4;
// Scratch descriptors in the child are taken from here up, clear of 0-4.
constexpr int kFirstFreeFd = 10;

// What the child tells the parent, through a close-on-exec pipe, when it cannot exec.
struct ChildFailure {
    enum Step : int { kOwner, kDeathSignal, kStandardStreams, kChannel, kWorkingDir, kExec } step;
    int error;
};

void closeFd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

std::string envValue(const std::vector<std::string>& entries, const std::string& name) {
    const std::string prefix = name + "=";
    for (const std::string& entry : entries) {
        if (entry.compare(0, prefix.size(), prefix) == 0) {
            return entry.substr(prefix.size());
        }
    }
    return {};
}

std::vector<std::string> buildEnvironment(const TrialLaunch& launch, const TrialOwner* owner) {
    std::map<std::string, std::string> variables;
    for (char** entry = environ; entry && *entry; ++entry) {
        const char* equals = std::strchr(*entry, '=');
        if (equals) {
            variables[std::string(*entry, static_cast<std::size_t>(equals - *entry))] = equals + 1;
        }
    }
    for (const auto& [name, value] : launch.env) {
        if (value) {
            variables[name] = *value;
        } else {
            variables.erase(name);
        }
    }
    variables.erase(kTrialUserVariable);
    if (owner) {  // the owner's own, as a login would set them
        variables["HOME"] = owner->home;
        variables["USER"] = owner->name;
        variables["LOGNAME"] = owner->name;
    }
    variables["TUNEDECK_CHANNEL"] =
        std::to_string(kChannelReadFd) + "," + std::to_string(kChannelWriteFd);
    std::vector<std::string> entries;
    entries.reserve(variables.size());
    for (const auto& [name, value] : variables) {
        entries.push_back(name + "=" + value);
    }
    return entries;
}

// execvpe's search, done before fork so the child only calls execve.
std::vector<std::string> programCandidates(const std::string& program, const std::string& path) {
    if (program.find('/') != std::string::npos) {
        return {program};
    }
    std::vector<std::string> candidates;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = path.find(':', begin);
        std::string dir = path.substr(begin, end == std::string::npos ? end : end - begin);
        candidates.push_back((dir.empty() ? std::string(".") : dir) + "/" + program);
        if (end == std::string::npos) {
            break;
        }
        begin = end + 1;
    }
    return candidates;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> result;
    result.reserve(strings.size() + 1);
    for (std::string& s : strings) {
        result.push_back(s.data());
    }
    result.push_back(nullptr);
    return result;
}

[[noreturn]] void failInChild(int errorFd, ChildFailure::Step step, int error) {
    const ChildFailure failure{step, error};
    [[maybe_unused]] const ssize_t ignored = ::write(errorFd, &failure, sizeof failure);
    ::_exit(127);
}

// Runs between fork and exec: async-signal-safe calls only, no allocation.
[[noreturn]] void becomeTrial(pid_t parent, int nullFd, int logFd, int channelRead,
                              int channelWrite, int errorFd, const char* cwd,
                              const std::vector<char*>& candidates, char* const* argv,
                              char* const* envp, const TrialOwner* owner, const char* cgroupProcs) {
    ::setpgid(0, 0);
    // Before the owner's uid, which may not move a process; a trial that cannot join runs
    // without (its process group and the agent's subreaper still cover it).
    if (cgroupProcs) {
        joinCgroup(cgroupProcs);
    }
    // Before the death signal: the kernel clears it when the user changes.
    if (owner && !becomeOwner(*owner)) {
        failInChild(errorFd, ChildFailure::kOwner, errno);
    }
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
        failInChild(errorFd, ChildFailure::kDeathSignal, errno);
    }
    if (::getppid() != parent) {
        ::_exit(127);  // the worker died before the death signal was armed
    }
    struct sigaction defaults {};
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    ::sigaction(SIGPIPE, &defaults, nullptr);  // the worker ignores it; the trial must not inherit
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);

    // The error pipe moves out of the way of the numbers the trial's streams are given.
    errorFd = ::fcntl(errorFd, F_DUPFD_CLOEXEC, kFirstFreeFd);
    if (errorFd < 0) {
        ::_exit(127);
    }
    if (::dup2(nullFd, STDIN_FILENO) < 0 || ::dup2(logFd, STDOUT_FILENO) < 0 ||
        ::dup2(logFd, STDERR_FILENO) < 0) {
        failInChild(errorFd, ChildFailure::kStandardStreams, errno);
    }
    // The channel lands on 3 and 4 (through copies above both, whatever numbers it had), so even
    // a POSIX shell, which only names descriptors 0-9, can use it. dup2 leaves the new
    // descriptors inheritable; every other descriptor of the worker is close-on-exec.
    const int readCopy = ::fcntl(channelRead, F_DUPFD_CLOEXEC, kFirstFreeFd);
    const int writeCopy = ::fcntl(channelWrite, F_DUPFD_CLOEXEC, kFirstFreeFd);
    if (readCopy < 0 || writeCopy < 0 || ::dup2(readCopy, kChannelReadFd) < 0 ||
        ::dup2(writeCopy, kChannelWriteFd) < 0) {
        failInChild(errorFd, ChildFailure::kChannel, errno);
    }
    // Descriptors the worker itself inherited without close-on-exec (from the engine, an SSH
    // server) must not reach the trial either.
    if (::close_range(kChannelWriteFd + 1, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        for (int fd = kChannelWriteFd + 1; fd < 1024; ++fd) {
            ::fcntl(fd, F_SETFD, FD_CLOEXEC);  // kernels before 5.11
        }
    }
    if (::chdir(cwd) != 0) {
        failInChild(errorFd, ChildFailure::kWorkingDir, errno);
    }
    int error = ENOENT;
    bool sawAccessDenied = false;
    for (char* candidate : candidates) {
        if (!candidate) {
            break;
        }
        ::execve(candidate, argv, envp);
        error = errno;
        if (error == EACCES) {
            sawAccessDenied = true;
        } else if (error != ENOENT && error != ENOTDIR && error != ESTALE && error != ENODEV &&
                   error != ETIMEDOUT) {
            break;  // the program was found but cannot run: report that, as execvp does
        }
    }
    if (sawAccessDenied && (error == ENOENT || error == ENOTDIR)) {
        error = EACCES;
    }
    failInChild(errorFd, ChildFailure::kExec, error);
}

std::string describeFailure(const ChildFailure& failure, const TrialLaunch& launch,
                            const std::string& cwd, const std::string& path) {
    const std::string reason = std::strerror(failure.error);
    const std::string& program = launch.argv.front();
    switch (failure.step) {
        case ChildFailure::kOwner:
            return "cannot run the trial as its owner: " + reason;
        case ChildFailure::kDeathSignal:
            return "cannot arm the parent-death signal: " + reason;
        case ChildFailure::kStandardStreams:
        case ChildFailure::kChannel:
            return "cannot set up the trial's standard streams and channel: " + reason;
        case ChildFailure::kWorkingDir:
            return "cannot enter the working directory '" + cwd + "': " + reason;
        case ChildFailure::kExec:
            if (failure.error == ENOENT && program.find('/') == std::string::npos) {
                return "cannot start '" + program + "': " + reason + " (searched PATH=" + path +
                       ")";
            }
            return "cannot start '" + program + "': " + reason;
    }
    return "cannot start '" + program + "'";
}

// A rank's output line is written whole up to this length (longer lines are cut in pieces,
// each with the prefix).
constexpr std::size_t kPrefixedLineBytes = 64 * 1024;

// Forks the process that copies what arrives on `readFd` into `logFd`, each line after `prefix`
// in one write(). It keeps no other descriptor (so the pipe's end of file comes when the trial's
// group has closed it), ignores the terminal's signals (it ends at that end of file, after the
// trial's last line) and dies with the worker. Between fork and _exit it makes only
// async-signal-safe calls; the buffers are made before the fork. -1 when fork fails.
pid_t startPrefixedLogWriter(int readFd, int logFd, const std::string& prefix) {
    std::vector<char> line(prefix.size() + kPrefixedLineBytes + 1);
    std::memcpy(line.data(), prefix.data(), prefix.size());
    std::vector<char> chunk(kPrefixedLineBytes);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid != 0) {
        return pid;
    }
    ::setpgid(0, 0);
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
        ::sigaction(signal, &ignore, nullptr);
    }
    struct sigaction defaults {};
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    ::sigaction(SIGCHLD, &defaults, nullptr);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) {
        ::_exit(0);
    }
    if (::dup2(readFd, STDIN_FILENO) < 0 || ::dup2(logFd, STDOUT_FILENO) < 0) {
        ::_exit(0);
    }
    if (::close_range(STDERR_FILENO, ~0U, 0) != 0) {
        for (int fd = STDERR_FILENO; fd < 1024; ++fd) {
            ::close(fd);  // kernels before 5.9
        }
    }
    const std::size_t start = prefix.size();
    std::size_t used = start;
    const auto writeLine = [&] {
        std::size_t done = 0;
        while (done < used) {
            const ssize_t n = ::write(STDOUT_FILENO, line.data() + done, used - done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                break;
            }
            done += std::size_t(n);
        }
        used = start;
    };
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        for (ssize_t i = 0; i < n; ++i) {
            line[used++] = chunk[std::size_t(i)];
            if (chunk[std::size_t(i)] == '\n') {
                writeLine();
            } else if (used == start + kPrefixedLineBytes) {
                line[used++] = '\n';
                writeLine();
            }
        }
    }
    if (used > start) {
        line[used++] = '\n';
        writeLine();
    }
    ::_exit(0);
}

LaunchedTrial failed(std::string why) {
    LaunchedTrial result;
    result.failure = std::move(why);
    return result;
}

}  // namespace

std::string trialLogPath(const std::string& trialDir) {
    return (std::filesystem::path(trialDir) / "trial.log").string();
}

void appendToTrialLog(const std::string& logPath, const std::string& line) {
    // Never through a symlink: a trial that owns its folder could point its log anywhere.
    const int fd =
        ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        return;
    }
    const std::string text = "tunedeck-worker: " + line + "\n";
    [[maybe_unused]] const ssize_t ignored = ::write(fd, text.data(), text.size());
    ::close(fd);
}

LaunchedTrial launchTrial(const TrialLaunch& launch) {
    if (launch.argv.empty() || launch.argv.front().empty()) {
        return failed("the command is empty");
    }
    std::error_code ec;
    std::filesystem::create_directories(launch.trialDir, ec);
    if (ec) {
        return failed("cannot create the trial directory '" + launch.trialDir +
                      "': " + ec.message());
    }
    std::string ownerFailure;
    const std::optional<TrialOwner> owner = checkpoint::ownerFromEnvironment(&ownerFailure);
    if (!ownerFailure.empty()) {
        return failed(ownerFailure);
    }
    LaunchedTrial trial;
    trial.logPath = trialLogPath(launch.trialDir);
    int logFd =
        ::open(trial.logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (logFd < 0) {
        return failed("cannot open '" + trial.logPath + "': " + std::strerror(errno));
    }
    // A gang's ranks share the log: rank 0 marks the start, the others join in below it.
    if (launch.logPrefix.empty() || launch.logPrefix == "[rank 0] ") {
        markAnotherStart(logFd);
    }
    if (owner) {
        if (const std::string why = handTrialFolderTo(*owner, launch.trialDir); !why.empty()) {
            closeFd(logFd);
            return failed(why);
        }
    }
    int nullFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    int toTrial[2] = {-1, -1};
    int fromTrial[2] = {-1, -1};
    int errorPipe[2] = {-1, -1};
    if (nullFd < 0 || ::pipe2(toTrial, O_CLOEXEC) != 0 || ::pipe2(fromTrial, O_CLOEXEC) != 0 ||
        ::pipe2(errorPipe, O_CLOEXEC) != 0) {
        const std::string why =
            std::string("cannot create the trial's channel: ") + std::strerror(errno);
        for (int* fd : {&logFd, &nullFd, &toTrial[0], &toTrial[1], &fromTrial[0], &fromTrial[1],
                        &errorPipe[0], &errorPipe[1]}) {
            closeFd(*fd);
        }
        return failed(why);
    }
    ::fcntl(fromTrial[0], F_SETPIPE_SZ, kChannelPipeBytes);  // best effort
    // A gang's rank prints through its log writer; any other trial straight into trial.log.
    int outputFd = logFd;
    int prefixed[2] = {-1, -1};
    if (!launch.logPrefix.empty()) {
        if (::pipe2(prefixed, O_CLOEXEC) != 0 ||
            startPrefixedLogWriter(prefixed[0], logFd, launch.logPrefix) < 0) {
            const std::string why =
                std::string("cannot start the trial's log writer: ") + std::strerror(errno);
            for (int* fd : {&logFd, &nullFd, &toTrial[0], &toTrial[1], &fromTrial[0], &fromTrial[1],
                            &errorPipe[0], &errorPipe[1], &prefixed[0], &prefixed[1]}) {
                closeFd(*fd);
            }
            return failed(why);
        }
        closeFd(prefixed[0]);
        outputFd = prefixed[1];
    }

    // Everything the child needs is built here: after fork it must not allocate.
    std::vector<std::string> envEntries = buildEnvironment(launch, owner ? &*owner : nullptr);
    std::string path = envValue(envEntries, "PATH");
    if (path.empty()) {
        path = "/usr/local/bin:/usr/bin:/bin";
    }
    std::vector<std::string> candidateStrings = programCandidates(launch.argv.front(), path);
    std::vector<std::string> argvStrings = launch.argv;
    const std::vector<char*> candidates = pointers(candidateStrings);
    const std::vector<char*> argv = pointers(argvStrings);
    const std::vector<char*> envp = pointers(envEntries);
    const std::string cwd = launch.cwd.empty() ? launch.trialDir : launch.cwd;
    const pid_t parent = ::getpid();

    const pid_t pid = ::fork();
    if (pid == 0) {
        becomeTrial(parent, nullFd, outputFd, toTrial[0], fromTrial[1], errorPipe[1], cwd.c_str(),
                    candidates, argv.data(), envp.data(), owner ? &*owner : nullptr,
                    launch.cgroupProcs.empty() ? nullptr : launch.cgroupProcs.c_str());
    }
    const int forkError = errno;
    if (pid > 0) {
        ::setpgid(pid, pid);  // also from here, so the group exists before anyone signals it
    }
    for (int* fd : {&logFd, &nullFd, &toTrial[0], &fromTrial[1], &errorPipe[1], &prefixed[1]}) {
        closeFd(*fd);
    }
    if (pid < 0) {
        for (int* fd : {&toTrial[1], &fromTrial[0], &errorPipe[0]}) {
            closeFd(*fd);
        }
        return failed(std::string("cannot fork: ") + std::strerror(forkError));
    }

    // Blocks only until the child has exec'd (the pipe closes) or reported why it could not.
    ChildFailure failure{};
    ssize_t got;
    do {
        got = ::read(errorPipe[0], &failure, sizeof failure);
    } while (got < 0 && errno == EINTR);
    closeFd(errorPipe[0]);
    if (got == static_cast<ssize_t>(sizeof failure)) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        closeFd(toTrial[1]);
        closeFd(fromTrial[0]);
        const std::string why = describeFailure(failure, launch, cwd, path);
        appendToTrialLog(trial.logPath, why);
        LaunchedTrial result = failed(why);
        result.logPath = trial.logPath;
        return result;
    }
    ::fcntl(toTrial[1], F_SETFL, O_NONBLOCK);
    ::fcntl(fromTrial[0], F_SETFL, O_NONBLOCK);
    trial.pid = pid;
    trial.answerFd = toTrial[1];
    trial.messageFd = fromTrial[0];
    return trial;
}

}  // namespace tunedeck::worker
