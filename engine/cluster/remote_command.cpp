#include "cluster/remote_command.h"

namespace tunedeck {

QString shellQuote(const QString& word) {
    QString quoted;
    quoted.reserve(word.size() + 2);
    quoted += QLatin1Char('\'');
    for (const QChar c : word) {
        if (c == QLatin1Char('\'')) {
            quoted += QLatin1String("'\\''");
        } else {
            quoted += c;
        }
    }
    quoted += QLatin1Char('\'');
    return quoted;
}

QString shellCommand(const QStringList& argv) {
    QStringList words;
    words.reserve(argv.size());
    for (const QString& word : argv) {
        words.append(shellQuote(word));
    }
    return words.join(QLatin1Char(' '));
}

QString remotePathExpression(const QString& path) {
    static const QString home = QStringLiteral("\"$HOME\"");
    if (path == QLatin1String("~")) {
        return home;
    }
    if (path.startsWith(QLatin1String("~/"))) {
        const QString rest = path.mid(2);
        return rest.isEmpty() ? home + QLatin1Char('/')
                              : home + QLatin1Char('/') + shellQuote(rest);
    }
    return shellQuote(path);
}

}  // namespace tunedeck
