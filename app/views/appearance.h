// How the app looks and speaks: the palette (light or dark, following the system unless the user
// chose one) and the translator of the language chosen in the settings (the system's by
// default). Both choices live in QSettings under "appearance/". GUI thread only.
#pragma once

#include <QString>
#include <QStringList>

namespace tunedeck::app {

enum class Theme { System, Light, Dark };

struct Appearance {
    Theme theme = Theme::System;
    QString language;  // empty: the system's locale; else a code of availableLanguages()
};

Appearance savedAppearance();
void saveAppearance(const Appearance& appearance);

// Installs the palette and the translators for `appearance`; again after every change. A
// language without a translation falls back to English. Returns the language now in use.
QString applyAppearance(const Appearance& appearance);

// The languages the app speaks: "en" and those with a compiled translation (e.g. "de", "zh_CN").
QStringList availableLanguages();
// A language's name in that language, for the settings ("Deutsch", "简体中文").
QString languageName(const QString& code);

// Whether the system asks for a dark palette (read from the platform's own palette).
bool systemPrefersDark();

}  // namespace tunedeck::app
