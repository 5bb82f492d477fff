#include "editors/yaml_highlighter.h"

#include <QGuiApplication>
#include <QPalette>

#include "editors/search_space_rows.h"

namespace tunedeck::app {

namespace {

// Whether the window is dark, so colours keep their contrast in both palettes.
bool darkPalette() {
    return QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
}

QTextCharFormat colourFormat(const QColor& light, const QColor& dark, bool bold = false,
                             bool italic = false) {
    QTextCharFormat f;
    f.setForeground(darkPalette() ? dark : light);
    if (bold) {
        f.setFontWeight(QFont::DemiBold);
    }
    f.setFontItalic(italic);
    return f;
}

}  // namespace

YamlHighlighter::YamlHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    key_ = colourFormat(QColor(0x1f, 0x4e, 0x8c), QColor(0x8c, 0xc4, 0xff));
    domain_ = colourFormat(QColor(0x7a, 0x2e, 0x8e), QColor(0xd7, 0xa6, 0xff), true);
    string_ = colourFormat(QColor(0x2e, 0x7d, 0x32), QColor(0xa5, 0xd6, 0xa7));
    literal_ = colourFormat(QColor(0xb3, 0x5c, 0x00), QColor(0xff, 0xb7, 0x4d));
    comment_ = colourFormat(QColor(0x75, 0x75, 0x75), QColor(0x9e, 0x9e, 0x9e), false, true);
    punctuation_ = colourFormat(QColor(0x55, 0x55, 0x55), QColor(0xbd, 0xbd, 0xbd), true);
}

void YamlHighlighter::highlightBlock(const QString& text) {
    static const QRegularExpression keyPattern(
        QStringLiteral("([A-Za-z_][\\w.\\-]*|\"[^\"]*\"|'[^']*')\\s*:(?=\\s|$|[,\\]}])"));
    static const QRegularExpression literalPattern(QStringLiteral(
        "(?<![\\w.\\-])([-+]?(\\d[\\d_]*)?\\.?\\d+([eE][-+]?\\d+)?|true|false|null|~)"
        "(?![\\w.\\-])"));
    static const QRegularExpression punctuationPattern(QStringLiteral("[\\[\\]{},]|^\\s*-(?=\\s)"));
    const QStringList domains = domainNames();

    // Where a comment starts: a # at the line start or after a blank, outside quotes.
    qsizetype commentAt = -1;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == quote) {
                setFormat(int(i), 1, string_);
                quote = QChar();
            } else {
                setFormat(int(i), 1, string_);
            }
            continue;
        }
        if (c == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace())) {
            commentAt = i;
            break;
        }
        if ((c == QLatin1Char('"') || c == QLatin1Char('\'')) &&
            (i == 0 || QStringLiteral(" \t[{,:-").contains(text[i - 1]))) {
            quote = c;
            setFormat(int(i), 1, string_);
        }
    }
    const QString code = commentAt < 0 ? text : text.left(commentAt);
    for (auto it = literalPattern.globalMatch(code); it.hasNext();) {
        const auto match = it.next();
        if (format(int(match.capturedStart())) != string_) {
            setFormat(int(match.capturedStart()), int(match.capturedLength()), literal_);
        }
    }
    for (auto it = punctuationPattern.globalMatch(code); it.hasNext();) {
        const auto match = it.next();
        if (format(int(match.capturedEnd()) - 1) != string_) {
            setFormat(int(match.capturedEnd()) - 1, 1, punctuation_);
        }
    }
    for (auto it = keyPattern.globalMatch(code); it.hasNext();) {
        const auto match = it.next();
        const bool domain =
            (domains.contains(match.captured(1)) && match.captured(1) != kConstantDomain) ||
            match.captured(1) == QLatin1String("when");
        setFormat(int(match.capturedStart(1)), int(match.capturedLength(1)),
                  domain ? domain_ : key_);
    }
    if (commentAt >= 0) {
        setFormat(int(commentAt), int(text.size() - commentAt), comment_);
    }
}

}  // namespace tunedeck::app
