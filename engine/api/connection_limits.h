// The limits that keep one client of the control server from taking it from the others: what a
// connection may make the server hold for it, how many connections there may be, and how long a
// TCP connection may stay without proving it knows the token. CONTROL_API.md ("Limits") says
// what a client sees of each. Constants only; thread-safe.
#pragma once

#include <QtGlobal>

namespace tunedeck::api::limits {

// A client that does not read its answers is not read either: above this many unread bytes of
// output, its requests wait in the kernel (back-pressure), so its answers cannot pile up.
inline constexpr qint64 kStopReadingAboveBytes = 1024 * 1024;
// Unread output beyond this closes the connection: what queues answers pauses far below it
// (requests above at 1 MiB, subscriptions at 8 MiB in cli/experiment_supervisor, the app
// benchmark's fake engine at 64 MiB), so only a client that reads nothing at all gets here.
inline constexpr qint64 kMaxUnreadOutputBytes = 128 * 1024 * 1024;
// Input Qt takes from the kernel ahead of the server's reading, per connection.
inline constexpr qint64 kReadBufferBytes = 64 * 1024;
// Requests are read in pieces of this size (answers of one piece may overshoot the pause above
// by about 40 times it: a 3-byte `{}` earns a 120-byte error)...
inline constexpr qint64 kReadPieceBytes = 4096;
// ...and at most this much per turn of the event loop, so one busy client cannot make the others
// wait.
inline constexpr qint64 kReadPerTurnBytes = 16 * 1024;

// Connections of every kind together; also at most half the open-file limit, so that the
// experiments' pipes and databases always have descriptors left.
inline constexpr int kMaxConnections = 1024;
// TCP connections that have not said hello with the token yet, in total and from one address:
// enough for a lab's apps connecting at once, too few to hold the server.
inline constexpr int kMaxUnauthenticated = 64;
inline constexpr int kMaxUnauthenticatedPerPeer = 8;
// A TCP connection without a good hello by then is closed (the app says hello at once; this
// leaves room for a slow SSH tunnel).
inline constexpr int kHelloWithinMs = 10000;
// Requests answered `unauthorized` or `bad_request` before the hello; the next one closes the
// connection (a client that has the token gets it right at the first try).
inline constexpr int kMaxRefusalsBeforeHello = 3;
// Longest unfinished line kept for a connection before its hello (a hello is a few hundred
// bytes; the 4 MiB request limit is for those who know the token).
inline constexpr qsizetype kMaxLineBeforeHello = 64 * 1024;

// After an accept error (out of descriptors), accepting rests this long instead of spinning.
inline constexpr int kAcceptRetryMs = 250;
// Connections the kernel queues before the server takes them.
inline constexpr int kListenBacklog = 128;

}  // namespace tunedeck::api::limits
