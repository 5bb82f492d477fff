// The `search_space:` mapping of an experiment file -> SearchSpace: constants, domains, nested
// groups, choice options holding groups (conditional subspaces) and `when:` conditions; and
// the checks shared with the NNI reader. Internal to engine/config; no shared state.
#pragma once

#include <QString>
#include <QStringList>

#include "config/problem_list.h"
#include "config/yaml_reader.h"
#include "core/search_space.h"

namespace tunedeck {

// The YAML names of the domains a parameter mapping may hold, in documentation order.
const QStringList& domainSyntaxNames();

// Reads `entry` (the search_space mapping). Returns false when it reported a problem (some
// parameters are then missing from `out`).
bool readSearchSpaceYaml(YamlReader& reader, const YamlEntry& entry, SearchSpace* out);

// Validates every domain that was read (Domain::validate, reported at the parameter as
// `prefix.path`), then, when every parameter was read (`complete`) and every domain is sound,
// the space as a whole (conditions). Returns true when the space is valid.
bool checkSearchSpace(const SearchSpace& space, const QString& prefix, bool complete,
                      const SourceLocation& sortAt, ProblemList* problems);

// Every dotted path a config of this space can hold ("model", "model.depth", ...), for
// checking {param} placeholders.
QStringList parameterPaths(const SearchSpace& space);

}  // namespace tunedeck
