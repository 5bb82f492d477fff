// The upper half of the monitor: the bar naming the open experiment's folder (with the
// read-only badge and the code the run used), the search, the status filter, the parallel
// coordinates' brush, the "Best trial by" picker, and the trial table. The user's selection in
// the table is the session's (session/experiment_session.h). Thread-safety: GUI thread only.
#pragma once

#include <QStringList>
#include <QWidget>
#include <optional>

#include "models/experiment_data.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace tunedeck::app {

class ExperimentSession;
class TrialColumnWidths;

class TrialTablePane : public QWidget {
    Q_OBJECT
  public:
    explicit TrialTablePane(ExperimentSession* session, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QLineEdit* search() const { return search_; }
    QStringList selectedTrials() const;
    // Selects `trialId`'s row and scrolls to it (a click in an analysis view).
    void selectTrial(const QString& trialId);
    // Selects the rows of `trialIds` (those the table shows), and only them; none: no change.
    void selectTrials(const QStringList& trialIds);
    // The table follows what changed since the last frame (the selection kept).
    void refresh(const ExperimentData::Changes& changes);
    // The folder bar: what is open, where (`remote`: the engine's folders are a server's).
    void showWhatIsOpen(bool remote);
    // The trials inside every brushed range of the parallel coordinates; nullopt: no brush.
    void setBrushed(const std::optional<QStringList>& inside);

  signals:
    void clearBrushRequested();
    // The "Best trial by" picker chose another scope; the data has it already.
    void scopeChanged();

  private:
    QWidget* buildFolderBar();
    QWidget* buildScopePicker();
    QModelIndex indexOf(const QString& trialId) const;

    ExperimentSession* session_;
    QTableView* table_ = nullptr;
    TrialColumnWidths* columnWidths_ = nullptr;  // fitted, bounded, the user's kept
    QLineEdit* search_ = nullptr;
    QComboBox* statusFilter_ = nullptr;
    QPushButton* clearBrush_ = nullptr;  // shown while the parallel coordinates filter the table
    QComboBox* scope_ = nullptr;         // what the best trial is chosen by
    QLabel* folderLabel_ = nullptr;
    QLabel* codeLabel_ = nullptr;  // the code the run used (code/version.json)
    QLabel* readOnlyBadge_ = nullptr;
};

}  // namespace tunedeck::app
