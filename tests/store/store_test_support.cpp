#include "store_test_support.h"

#include <sched.h>
#include <sys/mount.h>

#include <cerrno>

namespace store_test {

bool enterPrivateMountNamespace(QString* why) {
    // Entered once per process; threads started afterwards (the store's writer) inherit it.
    static bool tried = false;
    static QString failure;
    if (!tried) {
        tried = true;
        if (unshare(CLONE_NEWNS) != 0) {
            failure = QStringLiteral("unshare(CLONE_NEWNS): %1").arg(qt_error_string(errno));
        } else if (mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
            // Without this, mounts made here would propagate to the rest of the machine.
            failure = QStringLiteral("making mounts private: %1").arg(qt_error_string(errno));
        }
    }
    if (!failure.isEmpty()) {
        *why = failure;
        return false;
    }
    return true;
}

}  // namespace store_test
