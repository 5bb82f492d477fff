// The engine's fair queue (CONTROL_API.md, "Several experiments on one machine"): each experiment
// the engine runs on its machine, with its user, priority, trials running of those it may run,
// trials it wants, and why it waits. Asked of the engine every two seconds while shown.
// GUI thread only.
#pragma once

#include <QDialog>
#include <QTimer>

#include "api/control_answers.h"

class QLabel;
class QTableWidget;

namespace tunedeck::client {
class EngineClient;
}

namespace tunedeck::app {

class QueueDialog : public QDialog {
    Q_OBJECT
  public:
    QueueDialog(client::EngineClient& client, QWidget* parent = nullptr);

    // Asks the engine now (also every two seconds while shown).
    void refresh();

  protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

  private:
    void display(const api::QueueAnswer& queue);

    client::EngineClient& client_;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QTimer timer_;
};

}  // namespace tunedeck::app
