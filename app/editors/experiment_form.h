// The experiment form: the keys most experiments set, each in a widget that fits it (the command
// as a list of arguments, pickers for the searcher and the scheduler showing each one's
// description and option defaults). It shows what the YAML text says and reports each edit; it
// never holds values of its own, so the text stays the one place changes go through.
// Thread-safety: GUI thread only.
#pragma once

#include <QVariant>
#include <QWidget>

#include "editors/experiment_fields.h"

class QBoxLayout;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QToolButton;

namespace tunedeck::app {

class AlgorithmOptionsBox;
class StopCriteriaTable;

class ExperimentForm : public QWidget {
    Q_OBJECT
  public:
    explicit ExperimentForm(QWidget* parent = nullptr);

    // Shows `fields`; `editable` is false while the text does not parse, with `why` saying so.
    void showFields(const ExperimentFields& fields, bool editable, const QString& why = {});
    // The two groups one above the other (a narrow window) or side by side.
    void setStacked(bool stacked);
    // The narrowest width at which the two groups fit side by side.
    int sideBySideWidth() const;

  signals:
    void fieldEdited(tunedeck::app::FormField field, const QVariant& value);
    // A searcher or scheduler option, or a stop criterion, typed (empty: removed).
    void optionEdited(tunedeck::app::OptionSection section, const QString& key,
                      const QString& typed);
    void stopCriterionRenamed(const QString& from, const QString& to);

  private:
    QWidget* commandEditor();
    void fillPicker(QComboBox* picker, const QString& current, bool searchers);
    void showPickerOptions(QComboBox* picker, bool searchers);
    void commitCommand(QStringList arguments, int editRow = -1);
    void commitText(FormField field, const QString& text);

    ExperimentFields shown_;
    QBoxLayout* columns_;
    QGroupBox* experimentBox_;
    QGroupBox* schedulingBox_;
    QLabel* banner_;
    QLineEdit* name_;
    QListWidget* command_;
    QLabel* commandNote_;
    QLineEdit* workingDir_;
    QLineEdit* metric_;
    QComboBox* mode_;
    QSpinBox* numSamples_;
    QSpinBox* maxConcurrent_;
    QComboBox* search_;
    QLabel* searchOptions_;
    QComboBox* scheduler_;
    QLabel* schedulerOptions_;
    AlgorithmOptionsBox* searchOptionsBox_;
    AlgorithmOptionsBox* schedulerOptionsBox_;
    StopCriteriaTable* stop_;
    QSpinBox* checkpointFrequency_;
    QSpinBox* maxFailures_;
    int pendingEditRow_ = -1;  // an argument just added, opened for typing once it is shown
};

}  // namespace tunedeck::app

Q_DECLARE_METATYPE(tunedeck::app::FormField)
Q_DECLARE_METATYPE(tunedeck::app::OptionSection)
