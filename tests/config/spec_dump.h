// A canonical JSON rendering of a loaded experiment, for golden files: every field a user can
// set, with paths below `baseDir` shown relative to it so the files are machine-independent.
// Pure functions; thread-safe.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include "core/cluster_spec.h"
#include "core/experiment_spec.h"
#include "core/search_space.h"

namespace tunedeck::testing {

QJsonObject dumpExperiment(const ExperimentSpec& spec, const QString& baseDir);
// Every field of a cluster; paths below `baseDir` relative to it, paths in the home folder as
// "~/...", so the files do not depend on the machine.
QJsonObject dumpCluster(const ClusterSpec& spec, const QString& baseDir);
// Parameters in the order written: name, then constant / domain / group, and when.
QJsonArray dumpSearchSpace(const SearchSpace& space);
// The document as indented text, ending with a newline.
QString toGoldenText(const QJsonObject& object);

}  // namespace tunedeck::testing
