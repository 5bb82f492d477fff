// Which of the trial table's columns are shown: a right click on the header lists every column
// with a check box. A hidden column is remembered by its header text in the settings, so it stays
// hidden when the columns are placed anew (another experiment, new config keys or metrics) and
// in the next session. The first column (the trial's id) is always shown.
// Thread-safety: GUI thread only.
#pragma once

#include <QObject>
#include <QSet>
#include <QString>

class QMenu;
class QPoint;
class QTableView;

namespace tunedeck::app {

class TrialColumnChooser : public QObject {
    Q_OBJECT
  public:
    explicit TrialColumnChooser(QTableView* table);

    // The menu the header's right click opens, one checkable action per column; the caller owns
    // it. Triggering an action shows or hides its column at once.
    QMenu* createMenu();
    QSet<QString> hiddenTitles() const { return hidden_; }

  private:
    void apply();
    void setShown(const QString& title, bool shown);
    void showMenu(const QPoint& at);
    QString title(int column) const;

    QTableView* table_;
    QSet<QString> hidden_;
};

}  // namespace tunedeck::app
