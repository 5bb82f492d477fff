// The worker's side of the node link towards the engine: events are appended to one buffer and
// written out once per loop iteration, so a flood of reports costs one write() per batch.
// Not thread-safe: owned and used by the event loop's thread only.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "node_protocol/node_protocol.h"

namespace tunedeck::worker {

class EventOutput {
  public:
    // Makes `fd` non-blocking when it is a pipe or a socket (the node link), so a slow engine
    // never blocks the loop; a terminal or a file is left as it is.
    explicit EventOutput(int fd);

    void emit(const node::Event& event);
    // Appends bytes that already form whole event lines (the relay's fast path).
    void appendRaw(std::string_view bytes) { m_buffer.append(bytes); }

    std::size_t pendingBytes() const { return m_buffer.size() - m_written; }
    bool pending() const { return pendingBytes() > 0; }
    // The engine closed its end: nothing more can be said, pending output is dropped.
    bool broken() const { return m_broken; }
    int fd() const { return m_fd; }

    // Writes as much as the link takes now without blocking.
    void flush();
    // Before exit: waits up to `patienceMs` for the engine to take the rest.
    void flushBeforeExit(int patienceMs);

  private:
    void compact();

    int m_fd;
    bool m_nonBlocking = false;
    bool m_broken = false;
    std::string m_buffer;
    std::size_t m_written = 0;
};

}  // namespace tunedeck::worker
