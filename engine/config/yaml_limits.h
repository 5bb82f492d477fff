// The bounds every experiment and cluster file is read within, and the check that enforces them
// on the text before yaml-cpp builds a single node, so a hostile file (an alias that contains
// itself, an alias bomb, deep nesting, yaml-cpp 0.7's endless loop on a stray ',') is refused
// with its file:line:column instead of crashing or exhausting the engine or `serve`.
// Stateless; safe to call from any thread.
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>

#include "config/problem_list.h"
#include "core/status.h"

namespace tunedeck {

struct YamlLimits {
    // Far above any experiment or cluster file (the longest example is a few KB); parsing
    // this much takes yaml-cpp well under a second.
    qsizetype maxBytes = 1024 * 1024;
    // Nested lists and mappings, counting what aliases bring in; search spaces nest a handful.
    int maxDepth = 64;
    // Values (scalars, lists, mappings) once every alias is expanded: what the loaders walk.
    std::int64_t maxValues = 100000;
};

// What the check found besides its problems: where a second document starts (a file holds one).
struct YamlTextShape {
    std::optional<SourceLocation> secondDocument;
};

// A refusal before parsing: "the file is N bytes; ..." when `byteCount` is over the bound.
std::optional<QString> yamlSizeProblem(qsizetype byteCount, const YamlLimits& limits = {});

// Reads a user's experiment or cluster file whole. Refuses, before reading a byte, a path
// holding a NUL, what is not a regular file (a FIFO would block, /dev/zero never ends) and a
// file over `limits.maxBytes`. The message is the problem alone ("no such file"); the caller
// reports it as a problem of the file.
Status readYamlFileBytes(const QString& path, QByteArray* out, const YamlLimits& limits = {});

// Loads the file at `path` with `loadText(text, path)`, once readYamlFileBytes has read it; a
// file it refuses is one problem naming the file.
template <typename Spec>
LoadResult<Spec> loadYamlFile(const QString& path,
                              LoadResult<Spec> (*loadText)(const QString& text,
                                                           const QString& path)) {
    QByteArray utf8;
    if (const Status read = readYamlFileBytes(path, &utf8); !read) {
        LoadResult<Spec> result;
        static_cast<LoadProblems&>(result) = LoadProblems::unreadable(path, read);
        return result;
    }
    return loadText(QString::fromUtf8(utf8), path);
}

// Streams `utf8` through yaml-cpp's event parser (no nodes are built) and records in `problems`
// the first bound it breaks: size, a cycle of aliases, nesting, expanded values, or a token
// yaml-cpp would loop on for ever. YAML syntax errors are left to the
// real parse, which reports them the same way. Returns true when the text may be loaded.
bool checkYamlText(const TextPositions& positions, const QByteArray& utf8, ProblemList* problems,
                   YamlTextShape* shape, const YamlLimits& limits = {});

}  // namespace tunedeck
