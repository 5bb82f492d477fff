// The Trial tab: the one trial chosen in the table, whole. Its status, node and cards, runtime,
// failures and error message; its config (copied as YAML or JSON); every metric of its last
// result, with the objective's best; its status changes with their reasons ("stopped by ASHA at
// 6", "out of memory: ..."); its checkpoints. All of it is what ExperimentData already holds, from
// live events or a folder's history: nothing is read again. With no trial or several selected it
// says so. Thread-safety: GUI thread only.
#pragma once

#include <QStringList>
#include <QWidget>

#include "models/experiment_data.h"

class QLabel;
class QPushButton;
class QTextBrowser;

namespace tunedeck::app {

class TrialDetailView : public QWidget {
    Q_OBJECT
  public:
    explicit TrialDetailView(const ExperimentData* data, QWidget* parent = nullptr);

    // The trials selected in the table; the pane shows one, or says why not.
    void setTrials(const QStringList& ids);
    // A frame's changes: shown again only when the shown trial's row changed or rows came (a new
    // experiment), and only while the tab is visible.
    void refresh(const ExperimentData::Changes& changes);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void render();
    QString trialHtml(const TrialRow& row) const;
    QString statusHistoryHtml(const TrialRow& row) const;
    QString checkpointsHtml(const TrialRow& row) const;
    // The trial shown, or null (none or several selected, or not in this experiment).
    const TrialRow* shownRow() const;
    void copyConfig(bool yaml);

    const ExperimentData* data_;
    QStringList trials_;
    QTextBrowser* text_;
    QPushButton* copyYaml_;
    QPushButton* copyJson_;
    bool stale_ = true;  // to be shown again when next visible
};

}  // namespace tunedeck::app
