#include "config/command_line.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace tunedeck {

std::optional<QStringList> splitCommandLine(const QString& text, CommandLineProblem* problem) {
    enum class Quote { None, Single, Double };
    QStringList argv;
    QString word;
    bool inWord = false;  // '' is an argument of its own, so emptiness alone cannot tell
    Quote quote = Quote::None;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        switch (quote) {
            case Quote::Single:
                if (c == QLatin1Char('\'')) {
                    quote = Quote::None;
                } else {
                    word += c;
                }
                break;
            case Quote::Double:
                if (c == QLatin1Char('"')) {
                    quote = Quote::None;
                } else if (c == QLatin1Char('\\') && i + 1 < text.size() &&
                           QStringLiteral("\"\\$`\n").contains(text[i + 1])) {
                    ++i;
                    if (text[i] != QLatin1Char('\n')) {
                        word += text[i];
                    }
                } else {
                    word += c;
                }
                break;
            case Quote::None:
                if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n')) {
                    if (inWord) {
                        argv << word;
                        word.clear();
                        inWord = false;
                    }
                } else if (c == QLatin1Char('\'')) {
                    quote = Quote::Single;
                    inWord = true;
                } else if (c == QLatin1Char('"')) {
                    quote = Quote::Double;
                    inWord = true;
                } else if (c == QLatin1Char('\\')) {
                    if (i + 1 == text.size()) {
                        *problem = CommandLineProblem::LoneBackslash;
                        return std::nullopt;
                    }
                    ++i;
                    if (text[i] != QLatin1Char('\n')) {  // backslash-newline continues the line
                        word += text[i];
                        inWord = true;
                    }
                } else {
                    word += c;
                    inWord = true;
                }
                break;
        }
    }
    if (quote != Quote::None) {
        *problem = quote == Quote::Single ? CommandLineProblem::UnterminatedSingleQuote
                                          : CommandLineProblem::UnterminatedDoubleQuote;
        return std::nullopt;
    }
    if (inWord) {
        argv << word;
    }
    return argv;
}

std::optional<QStringList> splitCommandLine(const QString& text, QString* error) {
    CommandLineProblem problem = CommandLineProblem::LoneBackslash;
    std::optional<QStringList> argv = splitCommandLine(text, &problem);
    if (!argv) {
        switch (problem) {
            case CommandLineProblem::LoneBackslash:
                *error = QStringLiteral("ends with a lone backslash");
                break;
            case CommandLineProblem::UnterminatedSingleQuote:
                *error = QStringLiteral("unterminated single quote (')");
                break;
            case CommandLineProblem::UnterminatedDoubleQuote:
                *error = QStringLiteral("unterminated double quote (\")");
                break;
        }
    }
    return argv;
}

QStringList commandPlaceholders(const QStringList& argv) {
    static const QRegularExpression placeholder(
        QStringLiteral("\\{([A-Za-z_][\\w-]*(?:\\.[\\w-]+)*)\\}"));
    QStringList names;
    for (const QString& argument : argv) {
        auto matches = placeholder.globalMatch(argument);
        while (matches.hasNext()) {
            const QString name = matches.next().captured(1);
            if (!names.contains(name)) {
                names << name;
            }
        }
    }
    return names;
}

QString checkProgram(const QString& program, const QString& workingDir, const QString& searchPath) {
    if (program.contains(QLatin1Char('/'))) {
        const QFileInfo file(QDir(workingDir).absoluteFilePath(program));
        if (!file.exists()) {
            return QStringLiteral("'%1' not found in working_dir").arg(program);
        }
        if (file.isDir()) {
            return QStringLiteral("'%1' is a folder, not a program").arg(program);
        }
        if (!file.isExecutable()) {
            return QStringLiteral(
                       "'%1' is not executable (chmod +x it, or start the command with its "
                       "interpreter, e.g. python3)")
                .arg(program);
        }
        return {};
    }
    const QStringList paths = searchPath.isEmpty()
                                  ? QStringList()
                                  : searchPath.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    if (!QStandardPaths::findExecutable(program, paths).isEmpty()) {
        return {};
    }
    // A program beside the experiment is not looked up in PATH; exec would not find it either.
    const QFileInfo beside(QDir(workingDir).absoluteFilePath(program));
    if (beside.isFile() && beside.isExecutable()) {
        return QStringLiteral("'%1' not found in PATH; write './%1' to run the one in working_dir")
            .arg(program);
    }
    return QStringLiteral("'%1' not found in working_dir or PATH").arg(program);
}

}  // namespace tunedeck
