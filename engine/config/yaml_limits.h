// The bounds of config/input_limits.h on the text of an experiment or cluster file, checked
// before yaml-cpp builds a single node, so a hostile file (an alias that contains
// itself, an alias bomb, deep nesting, yaml-cpp 0.7's endless loop on a stray ',') is refused
// with its file:line:column instead of crashing or exhausting the engine or `serve`.
// Stateless; safe to call from any thread.
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>

#include "config/input_limits.h"
#include "config/problem_list.h"
#include "core/status.h"

namespace tunedeck {

// What the check found besides its problems: where a second document starts (a file holds one).
struct YamlTextShape {
    std::optional<SourceLocation> secondDocument;
};

// Loads the file at `path` with `loadText(text, path)`, once readInputFileBytes has read it; a
// file it refuses is one problem naming the file.
template <typename Spec>
LoadResult<Spec> loadYamlFile(const QString& path,
                              LoadResult<Spec> (*loadText)(const QString& text,
                                                           const QString& path)) {
    QByteArray utf8;
    if (const Status read = readInputFileBytes(path, &utf8); !read) {
        LoadResult<Spec> result;
        static_cast<LoadProblems&>(result) = LoadProblems::unreadable(path, read);
        return result;
    }
    return loadText(QString::fromUtf8(utf8), path);
}

// Streams `utf8` through yaml-cpp's event parser (no nodes are built) and records in `problems`
// the first bound it breaks: size, a cycle of aliases, nesting, expanded values, a key too long,
// or a token yaml-cpp would loop on for ever. YAML syntax errors are left to the
// real parse, which reports them the same way. Returns true when the text may be loaded.
bool checkYamlText(const TextPositions& positions, const QByteArray& utf8, ProblemList* problems,
                   YamlTextShape* shape, const InputLimits& limits = {});

}  // namespace tunedeck
