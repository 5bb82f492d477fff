#include "cluster/ssh/libssh2_handles.h"

#include <mutex>

namespace tunedeck::ssh {

void initialiseLibssh2() {
    static std::once_flag once;
    // libssh2_exit() is left to process exit: sessions may live until then.
    std::call_once(once, [] { libssh2_init(0); });
}

bool isSessionFatal(int rc) {
    switch (rc) {
        case LIBSSH2_ERROR_SOCKET_NONE:
        case LIBSSH2_ERROR_BANNER_RECV:
        case LIBSSH2_ERROR_BANNER_SEND:
        case LIBSSH2_ERROR_INVALID_MAC:
        case LIBSSH2_ERROR_KEX_FAILURE:
        case LIBSSH2_ERROR_ALLOC:
        case LIBSSH2_ERROR_SOCKET_SEND:
        case LIBSSH2_ERROR_KEY_EXCHANGE_FAILURE:
        case LIBSSH2_ERROR_TIMEOUT:
        case LIBSSH2_ERROR_DECRYPT:
        case LIBSSH2_ERROR_SOCKET_DISCONNECT:
        case LIBSSH2_ERROR_PROTO:
        case LIBSSH2_ERROR_ZLIB:
        case LIBSSH2_ERROR_SOCKET_TIMEOUT:
        case LIBSSH2_ERROR_COMPRESS:
        case LIBSSH2_ERROR_OUT_OF_BOUNDARY:
        case LIBSSH2_ERROR_SOCKET_RECV:
        case LIBSSH2_ERROR_ENCRYPT:
        case LIBSSH2_ERROR_BAD_SOCKET:
            return true;
        default:
            return false;
    }
}

}  // namespace tunedeck::ssh
