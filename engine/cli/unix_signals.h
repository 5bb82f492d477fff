// Turns SIGINT and SIGTERM into a Qt signal on the main event loop (the self-pipe trick), so an
// interrupted run stops its trials and saves its history instead of dying mid-write.
// Create one, on the main thread, before the event loop runs.
#pragma once

#include <QObject>
#include <QSocketNotifier>
#include <memory>

namespace tunedeck {

class UnixSignals : public QObject {
    Q_OBJECT
  public:
    explicit UnixSignals(QObject* parent = nullptr);
    ~UnixSignals() override;

  signals:
    void interrupted(int signalNumber);

  private:
    std::unique_ptr<QSocketNotifier> notifier_;
};

}  // namespace tunedeck
