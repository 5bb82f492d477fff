#include "core/experiment_access.h"

namespace tunedeck {

bool mayActOn(const Caller& caller, const QString& owner) {
    return caller.admin || (!caller.user.isEmpty() && caller.user == owner);
}

QString ownerFor(const Caller& caller, const QString& asked, QString* problem) {
    if (asked.isEmpty() || asked == caller.user) {
        return caller.user;
    }
    if (caller.admin) {
        return asked;
    }
    *problem = QStringLiteral(
                   "\"user\" is '%1' but this connection is %2's: only the server's admins may "
                   "start experiments for someone else")
                   .arg(asked, caller.user);
    return {};
}

}  // namespace tunedeck
