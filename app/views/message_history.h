// Every message the main window's status bar showed, kept so that one longer than the bar, or
// one gone after its ten seconds, can still be read whole: View > Messages... lists them with
// their times, newest last, and the bar's tooltip holds the whole current one. Only what the
// bar showed is kept, the last 500, for this session. GUI thread only.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <deque>

class QMainWindow;
class QMenu;
class QStatusBar;

namespace tunedeck::app {

class MessageHistory : public QObject {
    Q_OBJECT
  public:
    struct Entry {
        QDateTime time;
        QString text;
    };
    // Keeps what `bar` shows from now on; owned by the bar.
    explicit MessageHistory(QStatusBar* bar);
    const std::deque<Entry>& entries() const { return entries_; }
    // "14:02:11  cannot read ...", one line per message (a message's own line breaks kept).
    QString text() const;

  signals:
    void added(const tunedeck::app::MessageHistory::Entry& entry);

  private:
    void keep(const QString& message);

    std::deque<Entry> entries_;
};

// Adds Messages... to `view`, which opens a window listing `window`'s status messages and
// follows new ones while open.
void addMessageHistory(QMainWindow* window, QMenu* view);

}  // namespace tunedeck::app
