// Turns asynchronous signals into bytes on a pipe the event loop polls (the self-pipe trick):
// SIGCHLD means "reap", SIGTERM/SIGINT/SIGHUP mean "shut down like the `shutdown` op".
// Install once from the main thread before any trial starts; drain only from the loop's thread.
#pragma once

namespace tunedeck::worker {

struct PendingSignals {
    bool childExited = false;
    bool shutdownAsked = false;
};

// Installs the handlers, ignores SIGPIPE (a trial or the engine closing a pipe is an event, not
// a death) and returns the pipe's read end (non-blocking, close-on-exec). Returns -1 on failure.
int installSignalPipe();

// Reads everything that arrived since the last call.
PendingSignals drainSignalPipe(int readFd);

}  // namespace tunedeck::worker
