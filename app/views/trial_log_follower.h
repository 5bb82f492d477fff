// Follows one trial's log (its trial.log, stdout and stderr) into a text view: asks the engine's
// `trial_log` for what was added since the last offset every half second while the view is
// shown, so a long log arrives in pieces and nothing is read twice. GUI thread only.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include "client/engine_client.h"

class QPlainTextEdit;

namespace tunedeck::app {

class TrialLogFollower : public QObject {
    Q_OBJECT
  public:
    static constexpr int kPollMs = 500;

    TrialLogFollower(client::EngineClient* client, QPlainTextEdit* view, QObject* parent = nullptr);

    // Shows `trial` of `experiment` from the start of its log; an empty trial stops following.
    void follow(const QString& experiment, const QString& trial);
    QString trial() const { return trial_; }
    qint64 offset() const { return offset_; }

  private:
    void poll();

    client::EngineClient* client_;
    QPointer<QPlainTextEdit> view_;
    QTimer timer_;
    QString experiment_;
    QString trial_;
    qint64 offset_ = 0;
    bool asking_ = false;
    int generation_ = 0;  // answers for a trial no longer followed are dropped
};

}  // namespace tunedeck::app
