#include "views/settings_dialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "views/appearance.h"

namespace tunedeck::app {

namespace {
const QString kStartEngineKey = QStringLiteral("engine/start_local");
}

bool startsLocalEngine() {
    return QSettings().value(kStartEngineKey, true).toBool();
}

SettingsDialog::SettingsDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Settings"));
    const Appearance current = savedAppearance();
    openedLanguage_ = current.language;

    language_ = new QComboBox;
    language_->setObjectName(QStringLiteral("language"));
    // The C locale (LANG=C.UTF-8, usual on servers) has no language name: its texts are English.
    const QLocale system = QLocale::system();
    const QString systemName =
        system.language() == QLocale::C || system.language() == QLocale::AnyLanguage
            ? QStringLiteral("English")
            : system.nativeLanguageName();
    language_->addItem(tr("System language (%1)").arg(systemName), QString());
    for (const QString& code : availableLanguages()) {
        language_->addItem(languageName(code), code);
    }
    language_->setCurrentIndex(std::max(0, language_->findData(current.language)));

    theme_ = new QComboBox;
    theme_->setObjectName(QStringLiteral("theme"));
    theme_->addItem(tr("Follow the system"), int(Theme::System));
    theme_->addItem(tr("Light"), int(Theme::Light));
    theme_->addItem(tr("Dark"), int(Theme::Dark));
    theme_->setCurrentIndex(std::max(0, theme_->findData(int(current.theme))));

    startEngine_ = new QCheckBox(tr("Start a local engine when none is running"));
    startEngine_->setChecked(startsLocalEngine());

    auto* form = new QFormLayout;
    form->addRow(tr("Language:"), language_);
    form->addRow(tr("Colours:"), theme_);
    form->addRow(QString(), startEngine_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel |
                                         QDialogButtonBox::Apply);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this,
            [this] { apply(); });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

bool SettingsDialog::apply() {
    Appearance chosen;
    chosen.language = language_->currentData().toString();
    chosen.theme = Theme(theme_->currentData().toInt());
    saveAppearance(chosen);
    QSettings().setValue(kStartEngineKey, startEngine_->isChecked());
    applyAppearance(chosen);
    return chosen.language != openedLanguage_;
}

}  // namespace tunedeck::app
