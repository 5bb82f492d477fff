// tunedeck-worker: the node agent. The engine runs it on every node (through a pipe locally,
// an SSH exec channel remotely) and speaks PROTOCOL.md's node link over its stdin and stdout.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "node_protocol/node_protocol.h"
#include "tunedeck/version.h"
#include "worker/gpu_monitor.h"
#include "worker/inventory.h"
#include "worker/worker.h"

namespace {

constexpr const char* kUsage =
    "Usage: tunedeck-worker [--version | --help | --inventory]\n"
    "\n"
    "The Tunedeck node agent. It reads ops from stdin and writes events to stdout, one JSON\n"
    "object per line, as described in the trial protocol (engine/sdk/PROTOCOL.md). It is\n"
    "started by tunedeck-engine, locally or over SSH; it is not meant to be run by hand.\n"
    "When stdin closes it stops every trial it started and exits.\n"
    "\n"
    "  --inventory  print the hello event (CPUs, memory, GPUs) as one JSON line, and exit\n";

// Trial pipes must never land on 0-2: the child's dup2 onto its standard streams would clobber
// its own channel. A worker started with a closed standard fd gets /dev/null there instead.
void openStandardFds() {
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) < 0) {
            const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (opened >= 0 && opened != fd) {
                ::dup2(opened, fd);
                ::close(opened);
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("tunedeck-worker %s (%s)\n", TUNEDECK_VERSION, TUNEDECK_GIT_COMMIT);
            return 0;
        }
        if (std::strcmp(argv[i], "--inventory") == 0) {
            // What `validate` asks of this machine: the same inventory a run's hello carries.
            const tunedeck::worker::GpuMonitor gpus;
            std::fputs(tunedeck::node::encodeEvent(
                           tunedeck::worker::helloEvent(
                               tunedeck::worker::takeInventory(gpus.gpus(), gpus.note())))
                           .c_str(),
                       stdout);
            return 0;
        }
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        std::fprintf(stderr, "tunedeck-worker: unknown argument '%s'\n\n%s", argv[i], kUsage);
        return 2;
    }
    openStandardFds();
    tunedeck::worker::Worker worker(STDIN_FILENO, STDOUT_FILENO);
    return worker.run();
}
