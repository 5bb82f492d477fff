// The Experiments dock: the attached engine's experiments, newest first, with status, trial
// count and best; the row of the experiment shown is highlighted, and only it. One click opens
// a row. Thread-safety: GUI thread only.
#pragma once

#include <QTreeWidget>
#include <vector>

#include "api/control_answers.h"

namespace tunedeck::app {

class ExperimentList : public QTreeWidget {
    Q_OBJECT
  public:
    explicit ExperimentList(QWidget* parent = nullptr);

    // The engine's list, as it answered; `shown` is highlighted (empty: none).
    void showList(const std::vector<api::ExperimentListEntry>& experiments, const QString& shown);
    void highlight(const QString& shown);
    // The shown experiment's trial count follows its stream, as the table does; the engine's
    // list brings the rest: the status stays the engine's.
    void showTrialCount(const QString& shown, int trials);
    // An experiment's status as the list words it ("running" reads "läuft" in German); one the
    // app does not know is shown as the engine wrote it.
    static QString statusText(const QString& status);

  signals:
    // A row chosen by the user: `name` is to be shown (`clicked`: from the start page too).
    void openRequested(const QString& name, bool clicked);
};

}  // namespace tunedeck::app
