// The options of the chosen searcher or scheduler, under its picker in the experiment form: one
// field per option the catalogue lists, showing the file's value, or empty with the default as
// its placeholder ("100 (default)") where the file is silent; keys the file writes that the
// catalogue does not list (a resource_changing scheduler's base options) follow, as written.
// Typing a value reports it; clearing a field reports an empty value (the default applies again).
// A block collection written in the file is shown read-only: it is edited in the YAML tab.
// Thread-safety: GUI thread only.
#pragma once

#include <QList>
#include <QMap>
#include <QStringList>
#include <QWidget>

#include "editors/algorithm_catalog.h"
#include "editors/experiment_fields.h"

class QGridLayout;
class QLabel;
class QLineEdit;

namespace tunedeck::app {

class AlgorithmOptionsBox : public QWidget {
    Q_OBJECT
  public:
    // `prefix` names each field `<prefix>_<option>` ("schedulerOption_max_t").
    explicit AlgorithmOptionsBox(const QString& prefix, QWidget* parent = nullptr);

    // Shows the options of `info` (none for an unknown name) with the values `written`.
    void showOptions(const AlgorithmInfo* info, const QList<WrittenValue>& written);
    QLineEdit* field(const QString& option) const { return fields_.value(option); }

  signals:
    void optionEdited(const QString& option, const QString& typed);

  private:
    void rebuild(const QStringList& names);

    QString prefix_;
    QGridLayout* grid_;
    QStringList names_;  // the fields shown, in order
    QMap<QString, QLineEdit*> fields_;
    QList<QWidget*> cells_;
    QMap<QString, QString> shown_;  // option -> the text the file holds ("" when silent)
};

}  // namespace tunedeck::app
