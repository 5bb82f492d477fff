// What names the curves on the chart: the legend (each shown trial's line and id, right of the
// plot area, so it hides no curve's end) and the readout under the pointer (trial, step, value,
// with a ring on the point). Both are items of the chart's scene, so the chart exported as PNG or
// SVG carries them as shown. GUI thread only.
#pragma once

#include <QGraphicsRectItem>
#include <QPen>
#include <QString>
#include <vector>

class QGraphicsEllipseItem;
class QGraphicsSimpleTextItem;

namespace tunedeck::app {

struct LegendEntry {
    QPen pen;      // the curve's, as drawn; no line for a line of text only
    QString text;  // "t00003", "t00011 (best)", "and 4 more"
    bool operator==(const LegendEntry& other) const = default;
};

class CurveLegend : public QGraphicsRectItem {
  public:
    CurveLegend();
    // Replaces the entries; rebuilt only when they changed. None: the legend is not shown.
    void setEntries(const std::vector<LegendEntry>& entries);
    // Shown at all (the user's toggle).
    void setEnabled(bool on);
    // How many entry lines fit into `height` pixels.
    int linesThatFit(double height) const;
    // The width it takes beside the plot (0 when not shown).
    double widthTaken() const;
    void setColors(const QColor& text, const QColor& background);

  private:
    void rebuild();

    std::vector<LegendEntry> entries_;
    std::vector<QGraphicsItem*> parts_;
    QColor text_ = Qt::black;
    bool enabled_ = true;
};

class CurveReadout : public QGraphicsRectItem {
  public:
    CurveReadout();
    // `text` in a box beside `point` (scene coordinates), kept inside `plotArea`; a ring of
    // `color` marks the point.
    void show(const QString& text, QPointF point, const QColor& color, const QRectF& plotArea);
    void setColors(const QColor& text, const QColor& background);
    QString text() const;

  private:
    QGraphicsSimpleTextItem* label_;
    QGraphicsEllipseItem* ring_;
};

}  // namespace tunedeck::app
