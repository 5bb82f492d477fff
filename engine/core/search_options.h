// What the searchers share about checking their `search:` options: errors shaped as
// validateSearcher's (*badKey names the key, the message what is wrong and what was given) and
// the typed checks behind them, so each algorithm states only its own rules. Pure functions;
// thread-safe.
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <limits>

#include "core/status.h"

namespace tunedeck::search_options {

// Whole-number options above this are surely a typo, and stay far from int overflow.
inline constexpr double kLargestCount = 1e9;
inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// A value as the user wrote it, for "(got ...)": a number with up to 12 significant digits (so
// 0.1234567891 reads back as written), a string quoted, anything else named ("a list", "a
// mapping", "nothing").
QString shown(const QJsonValue& value);

// An invalid status with `message`; *badKey (when given) is set to `key`, a full key such as
// "metric" or "search.x0.lr".
Status keyError(QString* badKey, const QString& key, const QString& message);
// "<option> <problem> (got <value>)", at "search.<option>".
Status optionError(QString* badKey, const QString& option, const QString& problem,
                   const QJsonValue& value);

// The option is there and not null (a null asks for the default).
bool isSet(const QJsonObject& options, const QString& key);
// A finite whole number in [minimum, maximum].
bool isWholeNumber(const QJsonValue& value, double minimum = -kUnbounded,
                   double maximum = kUnbounded);
// A finite number between `low` and `high`; an open end leaves its bound out.
bool isNumberIn(const QJsonValue& value, double low, double high, bool lowOpen = false,
                bool highOpen = false);

}  // namespace tunedeck::search_options
