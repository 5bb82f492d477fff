#include "cli/stored_experiment.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>

namespace tunedeck::cli {

bool openExperiment(const QString& folderArgument, OpenedExperiment* out) {
    out->folder = QDir::cleanPath(QDir::current().absoluteFilePath(folderArgument));
    const QString database = out->folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(database)) {
        std::fprintf(stderr, "%s is not a Tunedeck experiment folder (no experiment.sqlite)\n",
                     qPrintable(out->folder));
        return false;
    }
    Status s = ExperimentStore::open(database, ExperimentStore::Mode::ReadOnly, &out->store);
    if (s) {
        s = out->store->loadExperiment(&out->record);
    }
    if (!s) {
        std::fprintf(stderr, "cannot read %s: %s\n", qPrintable(database), qPrintable(s.message()));
        return false;
    }
    out->spec = summarizeSpec(out->record.specText);
    return true;
}

}  // namespace tunedeck::cli
