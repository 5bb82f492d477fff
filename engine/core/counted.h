// A count with its noun, in English ("1 trial", "3 trials"), for the engine's messages and the
// CLI's lines; one rule instead of "trial(s)" in each of them. The app's own words go through
// Qt's %n plurals (translations/tunedeck_en.ts) instead. Pure; thread-safe.
#pragma once

#include <QString>

namespace tunedeck {

// `singular` for exactly one, else `plural` (by default `singular` and an "s"). ASCII nouns.
inline QString counted(qint64 n, const char* singular, const char* plural = nullptr) {
    QString noun = QLatin1String(n != 1 && plural ? plural : singular);
    if (n != 1 && !plural) {
        noun += QLatin1Char('s');
    }
    return QStringLiteral("%1 %2").arg(n).arg(noun);
}

}  // namespace tunedeck
