// What the study plots share: the experiment they draw, a refresh coalesced to at most four a
// second and deferred while hidden (charts/refresh_throttle.h), the selected trials, a click on
// a trial's mark selecting its row, and a canvas painted with QPainter under a row of controls.
// Thread-safety: GUI thread only.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <set>

#include "charts/refresh_throttle.h"
#include "models/experiment_data.h"

class QHBoxLayout;

namespace tunedeck::app {

// A widget whose painting and mouse handling are its owner's functions.
class PlotCanvas : public QWidget {
  public:
    std::function<void(QPainter&)> paint;
    std::function<QString(QPointF)> trialAt;  // the trial whose mark is under a point, or ""
    std::function<QString(const QString&)> toolTipOf;
    std::function<void(const QString&)> clicked;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
};

class StudyPlot : public QWidget {
    Q_OBJECT
  public:
    explicit StudyPlot(const ExperimentData* data, QWidget* parent = nullptr);

    // The data changed: recomputed now, or once the throttle's interval has passed; while the
    // view is hidden, when it is shown again.
    void refresh();
    // Recomputes at once (the tests, the benchmark).
    void recomputeNow();
    void setSelectedTrials(const QStringList& ids);
    PlotCanvas* canvas() const { return canvas_; }
    // The line under the plot saying what is (not) drawn.
    QString note() const { return note_; }

  signals:
    void trialClicked(const QString& trialId);

  protected:
    virtual void recompute() = 0;
    virtual void paintPlot(QPainter& painter) = 0;
    virtual QString trialAt(QPointF) const { return {}; }
    virtual QString toolTipOf(const QString& trialId) const;
    void showEvent(QShowEvent* event) override;
    void setNote(const QString& note) { note_ = note; }
    // The row of controls above the canvas.
    QHBoxLayout* controls() const { return controls_; }
    // The value named on the y axis: the metric and the window's scope ("accuracy, last result").
    QString valueTitle() const;
    // Paints the note centred on an empty canvas.
    void paintEmpty(QPainter& painter) const;

    const ExperimentData* data_;
    std::set<QString> selected_;

  private:
    RefreshThrottle throttle_;
    bool stale_ = true;
    QString note_;
    QHBoxLayout* controls_ = nullptr;
    PlotCanvas* canvas_ = nullptr;
};

// A colour on the sequential scale the plots share (viridis: dark purple at 0 to yellow at 1),
// readable on light and dark backgrounds and in grey.
QColor sequentialColour(double fraction);

}  // namespace tunedeck::app
