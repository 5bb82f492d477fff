#include "views/appearance.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QTranslator>

#include "charts/chart_theme.h"

namespace tunedeck::app {

namespace {

const QString kThemeKey = QStringLiteral("appearance/theme");
const QString kLanguageKey = QStringLiteral("appearance/language");
const QString kTranslationsPrefix = QStringLiteral(":/i18n");

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    const QColor highlight(0x3d, 0x7e, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::LinkVisited, highlight.lighter(110));
    for (const QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
        p.setColor(QPalette::Disabled, role, disabled);
    }
    return p;
}

// The platform's palette, captured before the app sets one of its own, so "follow the system"
// can go back to it.
const QPalette& systemPalette() {
    static const QPalette palette = QApplication::palette();
    return palette;
}

QList<QTranslator*>& installedTranslators() {
    static QList<QTranslator*> translators;
    return translators;
}

}  // namespace

Appearance savedAppearance() {
    const QSettings settings;
    Appearance appearance;
    const QString theme = settings.value(kThemeKey).toString();
    appearance.theme = theme == QLatin1String("dark")    ? Theme::Dark
                       : theme == QLatin1String("light") ? Theme::Light
                                                         : Theme::System;
    appearance.language = settings.value(kLanguageKey).toString();
    return appearance;
}

void saveAppearance(const Appearance& appearance) {
    QSettings settings;
    settings.setValue(kThemeKey, appearance.theme == Theme::Dark    ? QStringLiteral("dark")
                                 : appearance.theme == Theme::Light ? QStringLiteral("light")
                                                                    : QStringLiteral("system"));
    settings.setValue(kLanguageKey, appearance.language);
}

bool systemPrefersDark() {
    const QPalette& palette = systemPalette();
    return palette.color(QPalette::Window).lightness() <
           palette.color(QPalette::WindowText).lightness();
}

QStringList availableLanguages() {
    QStringList codes{QStringLiteral("en")};
    const QStringList files =
        QDir(kTranslationsPrefix)
            .entryList({QStringLiteral("tunedeck_*.qm")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        const QString code = file.mid(QStringLiteral("tunedeck_").size()).chopped(3);
        if (!codes.contains(code)) {  // English has a file too: its plural forms
            codes << code;
        }
    }
    return codes;
}

QString languageName(const QString& code) {
    const QLocale locale(code);
    QString name = locale.nativeLanguageName();
    if (code == QLatin1String("zh_CN")) {
        name = QStringLiteral("简体中文");
    } else if (code == QLatin1String("en")) {
        name = QStringLiteral("English");  // not "American English": the texts are not regional
    }
    return name.isEmpty() ? code : name.left(1).toUpper() + name.mid(1);
}

QString applyAppearance(const Appearance& appearance) {
    (void)systemPalette();
    if (appearance.theme != Theme::System) {
        // Fusion draws every widget from the palette, so both palettes look whole.
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    }
    QApplication::setPalette(appearance.theme == Theme::Dark ? darkPalette()
                             : appearance.theme == Theme::Light
                                 ? QApplication::style()->standardPalette()
                                 : systemPalette());
    applyChartTheme();

    for (QTranslator* translator : installedTranslators()) {
        QApplication::removeTranslator(translator);
        delete translator;
    }
    installedTranslators().clear();
    const QLocale locale =
        appearance.language.isEmpty() ? QLocale::system() : QLocale(appearance.language);
    auto* own = new QTranslator(qApp);
    if (!own->load(locale, QStringLiteral("tunedeck"), QStringLiteral("_"), kTranslationsPrefix)) {
        delete own;
        QLocale::setDefault(QLocale(QLocale::English));
        return QStringLiteral("en");
    }
    QApplication::installTranslator(own);
    installedTranslators() << own;
    // Qt's own strings (standard buttons and dialogs), where Debian's translations are installed.
    auto* qt = new QTranslator(qApp);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QApplication::installTranslator(qt);
        installedTranslators() << qt;
    } else {
        delete qt;
    }
    QLocale::setDefault(locale);
    // The code in the loaded file's name ("tunedeck_zh_CN.qm"), as availableLanguages() has it.
    const QString file = QFileInfo(own->filePath()).completeBaseName();
    return file.mid(file.indexOf('_') + 1);
}

}  // namespace tunedeck::app
