// The one set of bounds every file a user gives the engine is read within (experiment and
// cluster YAML, NNI search-space JSON), and the checks common to every syntax: the size, before a
// byte is read. Each syntax enforces the rest on its text before a value is built
// (config/yaml_limits.h, config/json_limits.h), so a hostile file is refused with its
// file:line:column instead of exhausting the engine or `serve`.
// Stateless; safe to call from any thread.
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>

#include "core/status.h"

namespace tunedeck {

struct InputLimits {
    // Far above any experiment, cluster or search-space file (the longest example is a few KB);
    // parsing this much takes yaml-cpp and QJsonDocument well under a second.
    qsizetype maxBytes = 1024 * 1024;
    // Nested lists and mappings (JSON arrays and objects), counting what YAML aliases bring in;
    // search spaces nest a handful, and the readers recurse once per level.
    int maxDepth = 64;
    // Values (scalars, lists, mappings) once every alias is expanded: what the loaders walk.
    std::int64_t maxValues = 100000;
    // One key: parameter and option names are words; a name longer than this is no name.
    qsizetype maxKeyBytes = 1024;
    // The loaders name values by their path (a.b.0.c) in problems and in the record of which
    // numbers were written as floats; every value's path, added up, bounds what that costs.
    // Without it 1 MB of nested long keys named its values in 2.3 GB. A file of 100,000 values
    // each 160 bytes deep stays below.
    std::int64_t maxPathBytes = 16 * 1024 * 1024;
};

// The files the bounds apply to, as the messages name them.
QString inputLimitsScope();

// What a file whose values' paths add up to more than `limits.maxPathBytes` is told.
QString inputPathsProblem(const InputLimits& limits = {});

// A refusal before parsing: "the file is N bytes; ..." when `byteCount` is over the bound.
std::optional<QString> inputSizeProblem(qsizetype byteCount, const InputLimits& limits = {});

// Reads a user's file whole. Refuses, before reading a byte, a path holding a NUL, what is not
// a regular file (a FIFO would block, /dev/zero never ends) and a file over `limits.maxBytes`.
// The message is the problem alone ("no such file"); the caller reports it as a problem of the
// file.
Status readInputFileBytes(const QString& path, QByteArray* out, const InputLimits& limits = {});

}  // namespace tunedeck
