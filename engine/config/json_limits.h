// The bounds of config/input_limits.h on a JSON text (an NNI search space), checked in one pass
// over its bytes before QJsonDocument or the readers build anything, holding only a frame per
// open level: a file that nests too deep, holds too many values, a key too long, or keys whose
// paths would cost more than the bound is refused at the place it breaks one.
// Stateless; safe to call from any thread.
#pragma once

#include <QByteArray>

#include "config/input_limits.h"
#include "config/problem_list.h"

namespace tunedeck {

// Records in `problems` the first bound `utf8` breaks, at its file:line:column, and returns
// false; true when the text may be parsed. It reads any bytes: syntax errors are left to the
// JSON parser, which reports them itself.
bool checkJsonText(const TextPositions& positions, const QByteArray& utf8, ProblemList* problems,
                   const InputLimits& limits = {});

}  // namespace tunedeck
