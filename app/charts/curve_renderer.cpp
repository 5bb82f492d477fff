#include "charts/curve_renderer.h"

#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

namespace tunedeck::app {

namespace {

constexpr double kTiny = 1e-300;                  // the floor of a log axis: log10(0) would be -inf
constexpr std::size_t kCurvesBetweenChecks = 16;  // how often a render asks if it was superseded

double logOf(double v) {
    return std::log10(std::max(v, kTiny));
}

// Blends thin polylines of one colour into a premultiplied ARGB32 image: Bresenham's line,
// source-over as Qt's raster engine computes it.
class ThinLines {
  public:
    ThinLines(QImage* image, QColor colour)
        : bits_(reinterpret_cast<quint32*>(image->bits())),
          stride_(image->bytesPerLine() / 4),
          width_(image->width()),
          height_(image->height()),
          source_(qPremultiply(colour.rgba())),
          inverseAlpha_(255 - qAlpha(source_)) {}

    // From (x0, y0) to (x1, y1) in pixels, the end pixel left to the next segment unless `last`.
    void segment(double x0, double y0, double x1, double y1, bool last) {
        if (!clip(&x0, &y0, &x1, &y1)) {
            return;
        }
        int ax = int(std::floor(x0));
        int ay = int(std::floor(y0));
        const int bx = int(std::floor(x1));
        const int by = int(std::floor(y1));
        const int dx = std::abs(bx - ax);
        const int dy = -std::abs(by - ay);
        const int sx = ax < bx ? 1 : -1;
        const int sy = ay < by ? 1 : -1;
        int error = dx + dy;
        while (ax != bx || ay != by) {
            plot(ax, ay);
            const int twice = 2 * error;
            if (twice >= dy) {
                error += dy;
                ax += sx;
            }
            if (twice <= dx) {
                error += dx;
                ay += sy;
            }
        }
        if (last) {
            plot(ax, ay);
        }
    }

  private:
    // Keeps the part of the segment over the image (Liang-Barsky), so a zoomed-in view never
    // walks the pixels of lines far outside it.
    bool clip(double* x0, double* y0, double* x1, double* y1) const {
        const double dx = *x1 - *x0;
        const double dy = *y1 - *y0;
        double from = 0;
        double to = 1;
        const double p[4] = {-dx, dx, -dy, dy};
        const double q[4] = {*x0 + 1, double(width_) - *x0, *y0 + 1, double(height_) - *y0};
        for (int i = 0; i < 4; ++i) {
            if (p[i] == 0) {
                if (q[i] < 0) {
                    return false;
                }
                continue;
            }
            const double r = q[i] / p[i];
            if (p[i] < 0) {
                from = std::max(from, r);
            } else {
                to = std::min(to, r);
            }
        }
        if (from > to || !std::isfinite(from) || !std::isfinite(to)) {
            return false;
        }
        *x1 = *x0 + to * dx;
        *y1 = *y0 + to * dy;
        *x0 += from * dx;
        *y0 += from * dy;
        return true;
    }
    // x * a / 255 per channel, rounded, two channels at a time (Qt's BYTE_MUL).
    static quint32 byteMul(quint32 x, quint32 a) {
        quint32 t = (x & 0xff00ff) * a;
        t = (t + ((t >> 8) & 0xff00ff) + 0x800080) >> 8;
        t &= 0xff00ff;
        x = ((x >> 8) & 0xff00ff) * a;
        x = (x + ((x >> 8) & 0xff00ff) + 0x800080);
        x &= 0xff00ff00;
        return x | t;
    }
    void plot(int x, int y) {
        if (unsigned(x) < unsigned(width_) && unsigned(y) < unsigned(height_)) {
            quint32* pixel = bits_ + qsizetype(y) * stride_ + x;
            *pixel = source_ + byteMul(*pixel, inverseAlpha_);
        }
    }

    quint32* bits_;
    qsizetype stride_;
    int width_;
    int height_;
    quint32 source_;
    quint32 inverseAlpha_;
};

bool isThin(const QPen& pen) {
    return pen.widthF() <= 1 && pen.style() == Qt::SolidLine &&
           pen.brush().style() == Qt::SolidPattern;
}

}  // namespace

QPointF CurveView::toPixel(double x, double y) const {
    const double yLow = logY ? logOf(yMin) : yMin;
    const double yHigh = logY ? logOf(yMax) : yMax;
    const double v = logY ? logOf(y) : y;
    return {area.left() + (x - xMin) / (xMax - xMin) * area.width(),
            area.bottom() - (v - yLow) / (yHigh - yLow) * area.height()};
}

QRectF CurveView::placedIn(const CurveView& other) const {
    if (logY != other.logY || xKind != other.xKind || area.isEmpty() || other.area.isEmpty()) {
        return {};
    }
    return QRectF(other.toPixel(xMin, yMax), other.toPixel(xMax, yMin));
}

void paintCurves(QPainter* painter, const CurveView& view, std::span<const CurveData> curves) {
    QPolygonF line;
    for (const CurveData& curve : curves) {
        line.resize(qsizetype(curve.points.size()));
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            line[qsizetype(i)] = view.toPixel(curve.points[i].x(), curve.points[i].y());
        }
        painter->setPen(curve.pen);
        painter->drawPolyline(line);
    }
}

void drawCurves(QImage* image, const CurveView& view, std::span<const CurveData> curves) {
    if (image->format() != QImage::Format_ARGB32_Premultiplied) {
        *image = image->convertToFormat(QImage::Format_ARGB32_Premultiplied);
    }
    const QPointF origin = view.area.topLeft();
    for (const CurveData& curve : curves) {
        if (!isThin(curve.pen)) {
            QPainter painter(image);
            painter.translate(-origin);
            painter.setRenderHint(QPainter::Antialiasing, false);
            paintCurves(&painter, view, std::span(&curve, 1));
            continue;
        }
        ThinLines lines(image, curve.pen.color());
        QPointF from;
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const QPointF to = view.toPixel(curve.points[i].x(), curve.points[i].y()) - origin;
            if (i > 0) {
                lines.segment(from.x(), from.y(), to.x(), to.y(), i + 1 == curve.points.size());
            } else if (curve.points.size() == 1) {
                lines.segment(to.x(), to.y(), to.x(), to.y(), true);
            }
            from = to;
        }
    }
}

QImage renderCurves(const CurveSnapshot& snapshot, const std::atomic<quint64>* latest,
                    quint64 ticket) {
    const CurveView& view = snapshot.view;
    QImage image(view.area.size().toSize().expandedTo(QSize(1, 1)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    const std::vector<CurveData>& curves = snapshot.curves;
    for (std::size_t first = 0; first < curves.size(); first += kCurvesBetweenChecks) {
        if (latest && latest->load() != ticket) {
            return {};
        }
        const std::size_t end = std::min(curves.size(), first + kCurvesBetweenChecks);
        drawCurves(&image, view, std::span(curves).subspan(first, end - first));
    }
    return image;
}

CurveRenderer::CurveRenderer(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);
    pool_.setExpiryTimeout(-1);  // keep the thread: a render every few seconds, for hours
}

CurveRenderer::~CurveRenderer() {
    cancel();
    pool_.waitForDone();  // a running render still posts to this object: let it finish first
}

quint64 CurveRenderer::render(std::shared_ptr<const CurveSnapshot> snapshot) {
    const quint64 ticket = ++latest_;
    pool_.start([this, ticket, snapshot = std::move(snapshot)] {
        if (latest_.load() != ticket) {
            return;  // superseded while it waited
        }
        QImage image = renderCurves(*snapshot, &latest_, ticket);
        if (!image.isNull()) {
            QMetaObject::invokeMethod(
                this, [this, ticket, image = std::move(image)] { deliver(ticket, image); },
                Qt::QueuedConnection);
        }
    });
    return ticket;
}

void CurveRenderer::cancel() {
    delivered_ = ++latest_;
    pool_.clear();
}

void CurveRenderer::deliver(quint64 ticket, const QImage& image) {
    if (ticket != latest_.load()) {
        return;
    }
    delivered_ = ticket;
    emit rendered(ticket, image);
}

}  // namespace tunedeck::app
