// Splits a byte stream into newline-terminated lines of bounded length: the framing of every
// JSON-lines stream of Tunedeck, in the engine (node links, the control API, `run
// --control-stdin`), in the app's client, and in the node agent (trial channels, its stdin).
// One rule for all of them: a line longer than the bound is never delivered; onOverlong is called
// once for it, as soon as more than the bound has arrived, and its bytes up to the next newline
// are skipped, so at most the bound is ever held (a 100 MB line costs 1 MiB, then is skipped).
// Plain C++17, header-only and free of Qt, so the agent (standard library and POSIX only, see
// DESIGN.md) includes it as the engine does. A value type; not thread-safe (one stream, one
// thread).
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace tunedeck {

class LineFramer {
  public:
    explicit LineFramer(std::size_t maxLine) : maxLine_(maxLine) {}

    // Feeds `bytes` (anything with data() and size(): QByteArray, QByteArrayView,
    // std::string_view) and calls onLine(std::string_view) for each complete line, without its
    // '\n' (a callback taking QByteArrayView receives it converted), and onOverlong() once per
    // line over the bound. A callback may return bool: false drops the rest of `bytes` and
    // feed() returns false (the agent stops reading a trial it fails). Otherwise returns true.
    template <class Bytes, class OnLine, class OnOverlong>
    bool feed(const Bytes& bytes, OnLine&& onLine, OnOverlong&& onOverlong) {
        std::string_view rest(reinterpret_cast<const char*>(bytes.data()),
                              static_cast<std::size_t>(bytes.size()));
        while (!rest.empty()) {
            const auto* newline =
                static_cast<const char*>(std::memchr(rest.data(), '\n', rest.size()));
            const std::size_t take =
                newline ? static_cast<std::size_t>(newline - rest.data()) : rest.size();
            bool goOn = true;
            if (skipping_) {
                skipping_ = newline == nullptr;  // the end of the overlong line, or more of it
            } else if (partial_.size() + take > maxLine_) {
                releasePartial();
                skipping_ = newline == nullptr;
                goOn = call(onOverlong);
            } else if (newline && partial_.empty()) {
                goOn = call(onLine, rest.substr(0, take));  // the whole line in this chunk: no copy
            } else if (newline) {
                partial_.append(rest.data(), take);
                goOn = call(onLine, std::string_view(partial_));
                clearPartial();
            } else {
                partial_.append(rest.data(), take);
            }
            rest.remove_prefix(newline ? take + 1 : take);
            if (!goOn) {
                return false;
            }
        }
        return true;
    }

    // Bytes of an unfinished line held so far (none while an overlong line is skipped).
    std::ptrdiff_t buffered() const { return static_cast<std::ptrdiff_t>(partial_.size()); }

    // The unterminated rest of a stream that ended without a final newline; the framer starts
    // over.
    std::string takePartial() {
        std::string rest;
        rest.swap(partial_);
        skipping_ = false;
        return rest;
    }

  private:
    template <class Callback, class... Args>
    static bool call(Callback& callback, Args... args) {
        if constexpr (std::is_void_v<std::invoke_result_t<Callback&, Args...>>) {
            callback(args...);
            return true;
        } else {
            return static_cast<bool>(callback(args...));
        }
    }

    void clearPartial() {
        // A one-off big line should not pin a megabyte per stream for the rest of its life.
        if (partial_.capacity() > 64 * 1024) {
            releasePartial();
        } else {
            partial_.clear();
        }
    }
    void releasePartial() { std::string().swap(partial_); }

    std::size_t maxLine_;
    std::string partial_;
    bool skipping_ = false;
};

}  // namespace tunedeck
