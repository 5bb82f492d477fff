#include "cli/stored_experiment.h"

#include <QDir>
#include <QFileInfo>
#include <cstdio>

namespace tunedeck::cli {

bool locateHistory(const QString& folderArgument, QString* folder, QString* database) {
    *folder = QDir::cleanPath(QDir::current().absoluteFilePath(folderArgument));
    *database = *folder + QStringLiteral("/experiment.sqlite");
    if (!QFileInfo::exists(*database)) {
        std::fprintf(stderr, "%s is not a Tunedeck experiment folder (no experiment.sqlite)\n",
                     qPrintable(*folder));
        return false;
    }
    return true;
}

bool openExperiment(const QString& folderArgument, OpenedExperiment* out) {
    QString database;
    if (!locateHistory(folderArgument, &out->folder, &database)) {
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
