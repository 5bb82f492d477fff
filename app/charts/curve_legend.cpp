#include "charts/curve_legend.h"

#include <QBrush>
#include <QFontMetricsF>
#include <QGraphicsEllipseItem>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>

namespace tunedeck::app {

namespace {

constexpr double kPadding = 6;     // inside the box
constexpr double kMargin = 8;      // around the box
constexpr double kSwatch = 18;     // the length of an entry's line
constexpr double kLeading = 2;     // between two entries' lines of text
constexpr double kRingRadius = 5;  // around the point the readout reads
constexpr double kReadoutOffset = 12;

}  // namespace

CurveLegend::CurveLegend() {
    setZValue(30);  // over the curves, the best trial's line and the note
    setVisible(false);
}

void CurveLegend::setColors(const QColor& text, const QColor& background) {
    text_ = text;
    QColor fill = background;
    fill.setAlpha(225);  // the curves under it still show through a little
    setBrush(fill);
    QColor border = text;
    border.setAlpha(80);
    setPen(QPen(border, 1));
    rebuild();
}

void CurveLegend::setEntries(const std::vector<LegendEntry>& entries) {
    if (entries == entries_) {
        return;
    }
    entries_ = entries;
    rebuild();
}

void CurveLegend::setEnabled(bool on) {
    enabled_ = on;
    setVisible(enabled_ && !entries_.empty());
}

int CurveLegend::linesThatFit(double height) const {
    const double line = QFontMetricsF(QGraphicsSimpleTextItem().font()).height() + kLeading;
    return std::max(1, int((height - 2 * (kMargin + kPadding)) / line));
}

double CurveLegend::widthTaken() const {
    return isVisible() ? rect().width() + 2 * kMargin : 0;
}

void CurveLegend::rebuild() {
    for (QGraphicsItem* part : parts_) {
        delete part;
    }
    parts_.clear();
    double y = kPadding;
    double width = 0;
    for (const LegendEntry& entry : entries_) {
        auto* label = new QGraphicsSimpleTextItem(entry.text, this);
        label->setBrush(text_);
        const double line = label->boundingRect().height();
        double x = kPadding;
        if (entry.pen.style() != Qt::NoPen) {
            auto* swatch = new QGraphicsLineItem(x, y + line / 2, x + kSwatch, y + line / 2, this);
            QPen pen = entry.pen;
            pen.setCapStyle(Qt::FlatCap);
            swatch->setPen(pen);
            parts_.push_back(swatch);
        }
        x += kSwatch + kPadding;
        label->setPos(x, y);
        parts_.push_back(label);
        width = std::max(width, x + label->boundingRect().width());
        y += line + kLeading;
    }
    setRect(0, 0, width + kPadding, y - kLeading + kPadding);
    setVisible(enabled_ && !entries_.empty());
}

CurveReadout::CurveReadout() {
    setZValue(40);
    label_ = new QGraphicsSimpleTextItem(this);
    label_->setPos(kPadding, kPadding);
    ring_ = new QGraphicsEllipseItem(this);  // on the point, outside the box
    ring_->setBrush(Qt::NoBrush);
    setVisible(false);
}

void CurveReadout::setColors(const QColor& text, const QColor& background) {
    label_->setBrush(text);
    QColor fill = background;
    fill.setAlpha(235);
    setBrush(fill);
    QColor border = text;
    border.setAlpha(80);
    setPen(QPen(border, 1));
}

QString CurveReadout::text() const {
    return isVisible() ? label_->text() : QString();
}

void CurveReadout::show(const QString& text, QPointF point, const QColor& color,
                        const QRectF& plotArea) {
    label_->setText(text);
    const QRectF box(0, 0, label_->boundingRect().width() + 2 * kPadding,
                     label_->boundingRect().height() + 2 * kPadding);
    setRect(box);
    // Beside the point, on whichever side leaves the box inside the plot.
    QPointF at = point + QPointF(kReadoutOffset, kReadoutOffset);
    if (at.x() + box.width() > plotArea.right()) {
        at.setX(point.x() - kReadoutOffset - box.width());
    }
    if (at.y() + box.height() > plotArea.bottom()) {
        at.setY(point.y() - kReadoutOffset - box.height());
    }
    at.setX(std::max(at.x(), plotArea.left()));
    at.setY(std::max(at.y(), plotArea.top()));
    setPos(at);
    ring_->setRect(QRectF(point - at - QPointF(kRingRadius, kRingRadius),
                          QSizeF(2 * kRingRadius, 2 * kRingRadius)));
    ring_->setPen(QPen(color, 2));
    setVisible(true);
}

}  // namespace tunedeck::app
