// How wide the trial table's columns are. A column fits its header and the values in view when
// the columns are placed (another experiment, new config keys or metrics), widens as wider values
// arrive, up to a cap, and never narrows while the same columns are shown, so the table does not
// jump from frame to frame. A column the user dragged keeps the user's width from then on.
// Thread-safety: GUI thread only.
#pragma once

#include <QObject>
#include <QSet>
#include <QString>

class QTableView;

namespace tunedeck::app {

class TrialColumnWidths : public QObject {
  public:
    explicit TrialColumnWidths(QTableView* table);

    // The columns were placed anew: each not sized by the user fits what is shown now, narrower
    // than before too.
    void refit();
    // Values changed: columns widen to what the rows in view and `extraRow` (a row of the
    // table's model, -1 for none: the bold best row, which may be out of view) need.
    void widen(int extraRow = -1);
    // The widest a column gets by itself; wider text is elided, the user may drag it wider.
    int cap() const;

  private:
    int needed(int column, int extraRow) const;
    void setWidth(int column, int width);
    QString title(int column) const;

    QTableView* table_;
    QSet<QString> userSized_;  // by header text: kept when the columns are placed anew
    bool setting_ = false;
};

}  // namespace tunedeck::app
