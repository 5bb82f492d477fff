#include "plots/plot_axis.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>
#include <limits>

namespace tunedeck::app {

namespace {

constexpr double kLeft = 70;       // tick labels and the rotated title
constexpr double kBottom = 42;     // tick labels and the title
constexpr double kTop = 10;        // room for the top tick label
constexpr double kRight = 16;      // room for the last tick label
constexpr double kPadding = 0.04;  // of the range, so no mark sits on the frame

// A step of 1, 2 or 5 times a power of ten giving about `wanted` intervals over `span`.
double roundStep(double span, int wanted) {
    const double raw = span / std::max(1, wanted);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * power >= raw * (1 - 1e-9)) {
            return m * power;
        }
    }
    return 10 * power;
}

}  // namespace

PlotAxis PlotAxis::linear(double min, double max, const QString& title) {
    PlotAxis axis;
    axis.title = title;
    if (!std::isfinite(min) || !std::isfinite(max)) {
        min = 0;
        max = 1;
    }
    if (!(max > min)) {
        const double pad = std::max(std::abs(min) * 0.1, 0.5);
        min -= pad;
        max += pad;
    }
    const double pad = (max - min) * kPadding;
    axis.lo = min - pad;
    axis.hi = max + pad;
    return axis;
}

PlotAxis PlotAxis::log(double min, double max, const QString& title) {
    PlotAxis axis;
    axis.kind = Kind::Log;
    axis.title = title;
    const double factor = std::max(std::pow(max / min, kPadding), 1.1);
    axis.lo = min / factor;
    axis.hi = max * factor;
    return axis;
}

PlotAxis PlotAxis::categorical(const QStringList& categories, const QString& title) {
    PlotAxis axis;
    axis.kind = Kind::Categorical;
    axis.title = title;
    axis.categories = categories;
    axis.lo = -0.5;
    axis.hi = double(std::max<qsizetype>(categories.size(), 1)) - 0.5;
    return axis;
}

double PlotAxis::fraction(double value) const {
    if (!std::isfinite(value)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (kind == Kind::Log) {
        if (value <= 0) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        return std::log(value / lo) / std::log(hi / lo);
    }
    return (value - lo) / (hi - lo);
}

std::vector<std::pair<double, QString>> PlotAxis::ticks(int wanted) const {
    std::vector<std::pair<double, QString>> out;
    if (kind == Kind::Categorical) {
        // Every category when they fit, else every n-th.
        const int every = std::max(1, int(categories.size()) / std::max(1, wanted * 2));
        for (int c = 0; c < int(categories.size()); c += every) {
            out.emplace_back(double(c), categories[c]);
        }
        return out;
    }
    if (kind == Kind::Log) {
        const int from = int(std::ceil(std::log10(lo) - 1e-9));
        const int to = int(std::floor(std::log10(hi) + 1e-9));
        const int every = std::max(1, (to - from + 1) / std::max(1, wanted));
        for (int k = from; k <= to; k += every) {
            out.emplace_back(std::pow(10.0, k), shortNumber(std::pow(10.0, k)));
        }
        if (out.size() < 2) {  // less than a decade: the ends
            out = {{lo, shortNumber(lo)}, {hi, shortNumber(hi)}};
        }
        return out;
    }
    // At least two labels: a round step about as long as the range (1 over 0 to 0.95) would
    // leave a single "0" under a small panel; a finer one is taken then.
    for (int intervals = std::max(1, wanted); out.size() < 2 && intervals <= 4 * wanted + 4;
         ++intervals) {
        out.clear();
        const double step = roundStep(hi - lo, intervals);
        for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
            const double tick = std::abs(v) < step * 1e-9 ? 0.0 : v;
            out.emplace_back(tick, shortNumber(tick));
        }
    }
    return out;
}

QRectF plotAreaIn(const QRectF& bounds) {
    return bounds.adjusted(kLeft, kTop, -kRight, -kBottom);
}

double pixelX(const QRectF& area, const PlotAxis& axis, double value) {
    return area.left() + axis.fraction(value) * area.width();
}

double pixelY(const QRectF& area, const PlotAxis& axis, double value) {
    return area.bottom() - axis.fraction(value) * area.height();
}

void drawGrid(QPainter& painter, const QPalette& palette, const QList<QRect>& lines) {
    QColor faint = palette.color(QPalette::Text);
    faint.setAlpha(28);
    painter.save();
    painter.setPen(Qt::NoPen);
    painter.setBrush(faint);
    painter.drawRects(lines.constData(), int(lines.size()));
    painter.restore();
}

void drawAxes(QPainter& painter, const QPalette& palette, const QRectF& area, const PlotAxis& x,
              const PlotAxis& y) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QColor text = palette.color(QPalette::Text);
    QList<QRect> grid;
    const QFontMetricsF metrics(painter.font());
    const double lineHeight = metrics.height();
    // Vertical grid and x labels; a label that would overlap the previous one is left out.
    double lastRight = -std::numeric_limits<double>::infinity();
    for (const auto& [value, label] : x.ticks(std::max(2, int(area.width() / 90)))) {
        const double px = pixelX(area, x, value);
        if (!std::isfinite(px) || px < area.left() - 0.5 || px > area.right() + 0.5) {
            continue;
        }
        grid.append(QRect(int(px), int(area.top()), 1, int(area.height())));
        const double w = metrics.horizontalAdvance(label);
        const QString shown = metrics.elidedText(label, Qt::ElideRight, 120);
        const double sw = std::min(w, 120.0);
        if (px - sw / 2 < lastRight + 6) {
            continue;
        }
        lastRight = px + sw / 2;
        painter.setPen(text);
        painter.drawText(QRectF(px - sw / 2 - 2, area.bottom() + 3, sw + 4, lineHeight),
                         Qt::AlignCenter, shown);
    }
    // Horizontal grid and y labels.
    for (const auto& [value, label] : y.ticks(std::max(2, int(area.height() / 45)))) {
        const double py = pixelY(area, y, value);
        if (!std::isfinite(py) || py < area.top() - 0.5 || py > area.bottom() + 0.5) {
            continue;
        }
        grid.append(QRect(int(area.left()), int(py), int(area.width()), 1));
        painter.setPen(text);
        const QString shown = metrics.elidedText(label, Qt::ElideRight, kLeft - lineHeight - 8);
        painter.drawText(QRectF(0, py - lineHeight / 2, area.left() - 4, lineHeight),
                         Qt::AlignRight | Qt::AlignVCenter, shown);
    }
    drawGrid(painter, palette, grid);
    painter.setPen(text);
    painter.drawRect(area);
    // Titles: x centred below, y rotated at the left edge.
    painter.drawText(QRectF(area.left(), area.bottom() + 3 + lineHeight, area.width(), lineHeight),
                     Qt::AlignCenter, metrics.elidedText(x.title, Qt::ElideMiddle, area.width()));
    painter.translate(area.left() - kLeft + 2, area.center().y());
    painter.rotate(-90);
    // A slice's small panels have no room for "val_loss, letztes Ergebnis": the metric alone
    // reads better than "val_loss, ...s Ergebnis" (the scope is the window's picker's).
    QString yTitle = y.title;
    if (metrics.horizontalAdvance(yTitle) > area.height() && yTitle.contains(QLatin1String(", "))) {
        yTitle = yTitle.section(QLatin1String(", "), 0, 0);
    }
    painter.drawText(QRectF(-area.height() / 2, 0, area.height(), lineHeight), Qt::AlignCenter,
                     metrics.elidedText(yTitle, Qt::ElideMiddle, area.height()));
    painter.restore();
}

QString shortNumber(double value) {
    if (value == 0) {
        return QStringLiteral("0");
    }
    return QString::number(value, 'g', 4);
}

}  // namespace tunedeck::app
