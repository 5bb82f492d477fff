// Who owns each experiment of a `serve`'s results root: the user who started it, recorded by the
// server in `.owners/NAME` under the root (a folder only the engine's user may enter), outside
// the experiment's own folder, which on a root engine belongs to its owner, who must not be able
// to rewrite whose it is. An experiment with no record (made by `run` from a shell, or by an
// older server) belongs to the engine's own user. Main thread only.
#pragma once

#include <QString>

namespace tunedeck::cli {

class ExperimentOwners {
  public:
    // `defaultOwner`: who owns an experiment without a record.
    ExperimentOwners(QString resultsRoot, QString defaultOwner);

    QString ownerOf(const QString& experiment) const;
    // Records `user` as the owner of `experiment` (a folder name under the root); false when
    // the record cannot be written.
    bool record(const QString& experiment, const QString& user);
    void forget(const QString& experiment);

  private:
    QString folder_;
    QString defaultOwner_;
};

}  // namespace tunedeck::cli
