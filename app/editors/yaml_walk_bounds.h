// What the experiment editor can walk of a parsed YAML tree: the bounds that keep a hostile text
// (an alias inside the value it names, an alias bomb, a stray ',') from crashing or hanging the
// app, mirroring the engine's own check (engine/config/yaml_limits.h). Pure; thread-safe.
#pragma once

#include <yaml-cpp/yaml.h>

#include <QString>
#include <optional>

namespace tunedeck::app {

// The editor walks the parsed tree to find each value's text, following aliases as yaml-cpp
// does. A text whose tree is deeper than this, or that aliases expand past this many values (an
// alias inside the value it names never ends; an alias bomb takes billions of steps), is shown
// as not parsed; the engine's check names the place.
inline constexpr int kMaxEditorDepth = 64;
inline constexpr int kMaxEditorValues = 100000;

// Why the tree cannot be walked, or nothing. Bounded itself: it stops at the first bound passed.
std::optional<QString> unwalkable(const YAML::Node& node, int depth, int& values);

// yaml-cpp 0.7 reads a stray ',' (outside [] and {}) as an empty document and stops there; the
// engine refuses it, so the editor must not offer it as a parsed, empty file.
bool holdsTextButNoValue(const YAML::Node& root, const QString& text);

}  // namespace tunedeck::app
