// Node addresses as a cluster file writes them: "host", "host:port", "[v6]" or "[v6]:port".
// Only hostnames, IPv4 and IPv6 addresses pass, so nothing the file says can reach a shell or be
// read as an ssh option ("-oProxyCommand=..."). Pure functions; thread-safe.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace tunedeck {

struct HostAndPort {
    QString host;             // IPv6 without its brackets
    std::optional<int> port;  // when written
};

// Why `host` (no port; IPv6 in brackets or not, as `bracketsRequired` says) is not a hostname,
// an IPv4 address or an IPv6 address; empty when it is one.
QString hostProblem(const QString& host, bool bracketsRequired);

// Splits and checks an address with an optional port. On failure `problem` says why.
std::optional<HostAndPort> parseHostAndPort(const QString& text, QString* problem);

// A TCP port, 1 to 65535.
bool isValidPort(std::int64_t port);

// `text` with line breaks, NUL and other control characters written as escapes, so a message
// quoting it stays one line.
QString printable(const QString& text);

}  // namespace tunedeck
