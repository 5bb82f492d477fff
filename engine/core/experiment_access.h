// Who may do what on a shared engine (`serve` used by several people): an experiment belongs to
// the user who started it, and only that user and the engine's admins may steer it, read it or
// delete it, as Slurm lets a job's owner and its operators cancel the job. The fair queue is
// everyone's to see (names, users, places), never anyone's configs. Pure functions; thread-safe.
#pragma once

#include <QString>

namespace tunedeck {

// Who sends a request, as the server established it (the socket peer's uid, or the user a TCP
// token belongs to): never what the request says.
struct Caller {
    QString user;        // a login name, or "uid N" for a number without one
    qint64 uid = -1;     // -1: a token's user without an account on this machine
    bool admin = false;  // root, the engine's own user, or a member of the admin group
};

// Whether `caller` may stop, pause, resume, delete, annotate or read (events, logs, best,
// export) an experiment owned by `owner`.
bool mayActOn(const Caller& caller, const QString& owner);

// The user an experiment of `caller` is queued and owned as: `asked` (the request's "user";
// empty when absent) is taken from an admin, who may start for someone else; from anyone else
// it must be their own name. Empty, with `problem` set, when refused.
QString ownerFor(const Caller& caller, const QString& asked, QString* problem);

}  // namespace tunedeck
