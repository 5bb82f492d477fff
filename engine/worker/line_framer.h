// Splits a byte stream into newline-terminated lines of bounded length without ever holding more
// than one line's limit in memory (a 100 MB line costs 1 MiB, then is skipped).
// Not thread-safe: one framer per stream, fed by one thread.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace tunedeck::worker {

class LineFramer {
  public:
    explicit LineFramer(std::size_t maxLineBytes) : m_maxLineBytes(maxLineBytes) {}

    // Calls onLine(std::string_view) for each complete line (without its '\n') and onOverflow()
    // once for each line longer than the limit. When a callback returns false the rest of
    // `bytes` is dropped and feed() returns false.
    template <class OnLine, class OnOverflow>
    bool feed(std::string_view bytes, OnLine&& onLine, OnOverflow&& onOverflow) {
        while (!bytes.empty()) {
            const void* found = std::memchr(bytes.data(), '\n', bytes.size());
            const char* newline = static_cast<const char*>(found);
            const std::size_t take =
                newline ? static_cast<std::size_t>(newline - bytes.data()) : bytes.size();
            bool keepGoing = true;
            if (m_skippingLongLine) {
                m_skippingLongLine = newline == nullptr;
            } else if (m_partial.size() + take > m_maxLineBytes) {
                releasePartial();
                m_skippingLongLine = newline == nullptr;
                keepGoing = onOverflow();
            } else if (newline && m_partial.empty()) {
                // The common case: the whole line is in this chunk, no copy.
                keepGoing = onLine(bytes.substr(0, take));
            } else if (newline) {
                m_partial.append(bytes.data(), take);
                keepGoing = onLine(std::string_view(m_partial));
                clearPartial();
            } else {
                m_partial.append(bytes.data(), take);
            }
            bytes.remove_prefix(newline ? take + 1 : take);
            if (!keepGoing) {
                return false;
            }
        }
        return true;
    }

    // The unterminated rest of a stream that ended without a final newline.
    std::string takePartial() {
        std::string rest;
        rest.swap(m_partial);
        m_skippingLongLine = false;
        return rest;
    }

  private:
    void clearPartial() {
        // A one-off big line should not pin a megabyte per trial for the rest of its life.
        if (m_partial.capacity() > 64 * 1024) {
            releasePartial();
        } else {
            m_partial.clear();
        }
    }
    void releasePartial() { std::string().swap(m_partial); }

    std::size_t m_maxLineBytes;
    std::string m_partial;
    bool m_skippingLongLine = false;
};

}  // namespace tunedeck::worker
