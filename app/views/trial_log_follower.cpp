#include "views/trial_log_follower.h"

#include <QPlainTextEdit>
#include <QScrollBar>

namespace tunedeck::app {

TrialLogFollower::TrialLogFollower(client::EngineClient* client, QPlainTextEdit* view,
                                   QObject* parent)
    : QObject(parent), client_(client), view_(view) {
    timer_.setInterval(kPollMs);
    connect(&timer_, &QTimer::timeout, this, &TrialLogFollower::poll);
}

void TrialLogFollower::follow(const QString& experiment, const QString& trial) {
    if (experiment == experiment_ && trial == trial_) {
        return;
    }
    ++generation_;
    experiment_ = experiment;
    trial_ = trial;
    offset_ = 0;
    asking_ = false;
    if (trial.isEmpty()) {
        timer_.stop();
        return;
    }
    if (view_) {
        view_->clear();
    }
    timer_.start();
    poll();
}

void TrialLogFollower::poll() {
    if (asking_ || !view_ || !view_->isVisible() || !client_->isReady()) {
        return;  // one question at a time, and none while nobody looks
    }
    asking_ = true;
    const int generation = generation_;
    client_->trialLog(experiment_, trial_, offset_,
                      [this, generation](const Status& status, const api::TrialLogAnswer& answer) {
                          if (generation != generation_) {
                              return;
                          }
                          asking_ = false;
                          if (!status || !view_) {
                              return;
                          }
                          const qint64 next = answer.offset;
                          if (next < offset_) {
                              view_->clear();  // a new attempt started the log again
                          }
                          offset_ = next;
                          const QString& text = answer.text;
                          if (text.isEmpty()) {
                              return;
                          }
                          QScrollBar* bar = view_->verticalScrollBar();
                          const bool atEnd = bar->value() == bar->maximum();
                          QTextCursor cursor(view_->document());
                          cursor.movePosition(QTextCursor::End);
                          cursor.insertText(text);
                          if (atEnd) {
                              bar->setValue(bar->maximum());  // keep following the tail
                          }
                          if (offset_ < answer.size) {
                              QTimer::singleShot(0, this, &TrialLogFollower::poll);  // more now
                          }
                      });
}

}  // namespace tunedeck::app
