// Experiment > Change limits...: num_samples and max_concurrent_trials of a running experiment
// (the control API's set_limits, engine/api/CONTROL_API.md), prefilled with the values in force.
// Only what was changed is sent; the engine's refusal is shown in the dialog, which stays open;
// once taken, the dialog closes and the progress bar follows the engine's `limits` event.
// GUI thread only.
#pragma once

#include <QDialog>

class QLabel;
class QPushButton;
class QSpinBox;

namespace tunedeck::client {
class EngineClient;
}

namespace tunedeck::app {

class LimitsDialog : public QDialog {
    Q_OBJECT
  public:
    // `maxConcurrentTrials` 0: no limit (as the experiment file says it).
    LimitsDialog(client::EngineClient& client, const QString& experiment, int numSamples,
                 int maxConcurrentTrials, QWidget* parent = nullptr);

  private:
    void apply();
    // Taller when the refusal's text needs it; never narrower.
    void growToFit();

    client::EngineClient& client_;
    QString experiment_;
    int numSamples_;
    int maxConcurrentTrials_;
    QSpinBox* samples_ = nullptr;
    QSpinBox* concurrent_ = nullptr;
    QLabel* error_ = nullptr;
    QPushButton* apply_ = nullptr;
};

}  // namespace tunedeck::app
