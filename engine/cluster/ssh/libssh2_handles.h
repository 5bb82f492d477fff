// Owning handles for libssh2 objects, and the once-per-process library initialisation.
// Thread-safety: initialiseLibssh2() may be called from any thread; a handle belongs to the thread
// of the session it came from.
//
// The deleters free without waiting: they run when a session is torn down, after SshSession has
// switched its transport to "discard" mode (sends succeed into the void, receives fail), so that
// no libssh2 call can answer EAGAIN and leave an object half-freed. Closing a channel while the
// session lives is not a deleter's job: SshSession::retireChannel() retries libssh2_channel_free()
// on socket activity until the server has confirmed the close.
#pragma once

#include <memory>

#include <libssh2.h>

namespace tunedeck::ssh {

// libssh2_init() is not thread-safe and must run once before any session exists.
void initialiseLibssh2();

struct SessionDeleter {
    void operator()(LIBSSH2_SESSION* session) const { libssh2_session_free(session); }
};
struct ChannelDeleter {
    void operator()(LIBSSH2_CHANNEL* channel) const { libssh2_channel_free(channel); }
};
struct KnownHostsDeleter {
    void operator()(LIBSSH2_KNOWNHOSTS* hosts) const { libssh2_knownhost_free(hosts); }
};
struct AgentDeleter {
    void operator()(LIBSSH2_AGENT* agent) const {
        libssh2_agent_disconnect(agent);
        libssh2_agent_free(agent);
    }
};

using SessionHandle = std::unique_ptr<LIBSSH2_SESSION, SessionDeleter>;
using ChannelHandle = std::unique_ptr<LIBSSH2_CHANNEL, ChannelDeleter>;
using KnownHostsHandle = std::unique_ptr<LIBSSH2_KNOWNHOSTS, KnownHostsDeleter>;
using AgentHandle = std::unique_ptr<LIBSSH2_AGENT, AgentDeleter>;

// A libssh2 return code that ends the whole session (the socket or the transport is broken), as
// opposed to one that only fails the operation that returned it.
bool isSessionFatal(int rc);

}  // namespace tunedeck::ssh
