// The settings dialog: language (the system's or one the app speaks), palette (follow the system,
// light or dark) and whether the app starts a local engine when none answers. Choices are saved
// in QSettings and applied at once; a language change offers a restart, since windows already
// built keep their texts. GUI thread only.
#pragma once

#include <QDialog>

class QComboBox;
class QCheckBox;

namespace tunedeck::app {

// Whether the app starts `tunedeck-engine serve` by itself when no local engine answers.
bool startsLocalEngine();

class SettingsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit SettingsDialog(QWidget* parent = nullptr);

    // Saves and applies the choices; true when the language is another than when the dialog
    // opened (the caller may restart), also when Apply changed it before OK.
    bool apply();

  private:
    QString openedLanguage_;
    QComboBox* language_ = nullptr;
    QComboBox* theme_ = nullptr;
    QCheckBox* startEngine_ = nullptr;
};

}  // namespace tunedeck::app
