#include "core/trial_note.h"

namespace tunedeck {

Status checkTrialNote(const QString& note) {
    if (note.size() > kMaxTrialNoteChars) {
        return Status::invalid(
            QStringLiteral("note: %1 characters, more than the %2 a note may have")
                .arg(note.size())
                .arg(kMaxTrialNoteChars));
    }
    for (qsizetype i = 0; i < note.size(); ++i) {
        const QChar c = note.at(i);
        const bool control = c.category() == QChar::Other_Control;
        if (control && c != QLatin1Char('\n') && c != QLatin1Char('\t')) {
            const QString code =
                QStringLiteral("%1").arg(c.unicode(), 4, 16, QLatin1Char('0')).toUpper();
            return Status::invalid(QStringLiteral("note: character %1: control character U+%2 "
                                                  "(only line breaks and tabs may be in a note)")
                                       .arg(i + 1)
                                       .arg(code));
        }
    }
    return Status::ok();
}

QString trialNoteLine(const QString& note, int maxChars) {
    QString line = note.simplified();
    if (maxChars > 3 && line.size() > maxChars) {
        line = line.left(maxChars - 3).trimmed() + QStringLiteral("...");
    }
    return line;
}

}  // namespace tunedeck
