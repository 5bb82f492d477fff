// The status bar's permanent part: the open experiment's trial counts, its progress bar (by its
// budget: trials or time), and the engine connection. Thread-safety: GUI thread only.
#pragma once

#include <QObject>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace tunedeck::app {

class ExperimentSession;

class RunStatusLine : public QObject {
    Q_OBJECT
  public:
    RunStatusLine(const ExperimentSession* session, QStatusBar* bar);

    void update();
    void setConnection(const QString& text);

  private:
    const ExperimentSession* session_;
    QLabel* counts_;
    QProgressBar* progress_;
    QLabel* connection_;
};

}  // namespace tunedeck::app
