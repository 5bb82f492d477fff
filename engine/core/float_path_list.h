// The float numbers of a JSON text as a list (core/config_json.h's floatPathsInJson, before it
// becomes a set): a reader of many configs keeps one shared FloatPaths per distinct list rather
// than building a hash table per config. Pure function; thread-safe.
#pragma once

#include <QByteArray>
#include <QStringList>

namespace tunedeck {

// The paths of the numbers written with a '.', 'e' or 'E', in the order the text has them.
QStringList floatPathListInJson(const QByteArray& text);

}  // namespace tunedeck
