#include "charts/curve_renderer.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>
#include <optional>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace tunedeck::app {

namespace {

constexpr double kTiny = 1e-300;                  // the floor of a log axis: log10(0) would be -inf
constexpr std::size_t kCurvesBetweenChecks = 16;  // how often a render asks if it was superseded
// An image scaled further than this into a zoomed view is a blur: not shown while its
// replacement is drawn.
constexpr double kMaxScale = 16;
constexpr double kPointRadius = 3;  // a lone point's dot: seen at a glance, not a blot

double logOf(double v) {
    return std::log10(std::max(v, kTiny));
}

// The part of the segment (x0, y0)-(x1, y1) inside `r` (Liang-Barsky); false when none.
bool clipSegment(double* x0, double* y0, double* x1, double* y1, const QRectF& r) {
    const double dx = *x1 - *x0;
    const double dy = *y1 - *y0;
    double from = 0;
    double to = 1;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {*x0 - r.left(), r.right() - *x0, *y0 - r.top(), r.bottom() - *y0};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) {
                return false;
            }
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0) {
            from = std::max(from, t);
        } else {
            to = std::min(to, t);
        }
    }
    if (from > to || !std::isfinite(from) || !std::isfinite(to)) {
        return false;
    }
    if (to < 1) {  // an end inside stays exactly where it was: the next segment starts there
        *x1 = *x0 + to * dx;
        *y1 = *y0 + to * dy;
    }
    if (from > 0) {
        *x0 += from * dx;
        *y0 += from * dy;
    }
    return true;
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
    // Keeps the part of the segment over the image, so a zoomed-in view never walks the
    // pixels of lines far outside it.
    bool clip(double* x0, double* y0, double* x1, double* y1) const {
        return clipSegment(x0, y0, x1, y1, QRectF(-1, -1, width_ + 1, height_ + 1));
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

// The renderer's thread yields to the GUI thread when both want a CPU (a nice of 10 weighs a
// tenth of the default): on a two-core machine a 100 ms render would otherwise take the core
// the GUI thread needs for its next frame. Linux sets niceness per thread; elsewhere this does
// nothing.
void yieldToTheGuiThread() {
#ifdef Q_OS_LINUX
    thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        setpriority(PRIO_PROCESS, id_t(gettid()), 10);
    }
#endif
}

bool isVectorDevice(const QPainter* painter) {
    const QPaintEngine* engine = painter->paintEngine();
    return engine && (engine->type() == QPaintEngine::SVG || engine->type() == QPaintEngine::Pdf);
}

bool isThin(const QPen& pen) {
    return pen.widthF() <= 1 && pen.style() == Qt::SolidLine &&
           pen.brush().style() == Qt::SolidPattern;
}

// A trial that reported once (an Optuna-style objective) has no line to draw: a dot in its
// curve's colour, a little wider than its line, so it is seen among the lines.
void paintPoint(QPainter* painter, const CurveView& view, const CurveData& curve) {
    const QPointF at = view.toPixel(curve.points.front().x(), curve.points.front().y());
    if (!view.area.contains(at)) {
        return;
    }
    const double radius = std::max(kPointRadius, curve.pen.widthF() + 1.5);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(Qt::NoPen);
    painter->setBrush(curve.pen.color());
    painter->drawEllipse(at, radius, radius);
    painter->restore();
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
    // Cut to the plot area here rather than by the painter's clip, which an SVG file does not
    // keep: a zoomed view's lines would run over the axes.
    QPolygonF piece;
    for (const CurveData& curve : curves) {
        if (curve.points.size() == 1) {
            paintPoint(painter, view, curve);
            continue;
        }
        painter->setPen(curve.pen);
        QPointF from;
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const QPointF to = view.toPixel(curve.points[i].x(), curve.points[i].y());
            double x0 = from.x(), y0 = from.y(), x1 = to.x(), y1 = to.y();
            if (i > 0 && clipSegment(&x0, &y0, &x1, &y1, view.area)) {
                if (!piece.isEmpty() && piece.last() != QPointF(x0, y0)) {
                    painter->drawPolyline(piece);  // it left the area and came back
                    piece.clear();
                }
                if (piece.isEmpty()) {
                    piece.append(QPointF(x0, y0));
                }
                piece.append(QPointF(x1, y1));
            }
            from = to;
        }
        if (!piece.isEmpty()) {
            painter->drawPolyline(piece);
            piece.clear();
        }
    }
}

void drawCurves(QImage* image, const CurveView& view, std::span<const CurveData> curves) {
    if (image->format() != QImage::Format_ARGB32_Premultiplied) {
        *image = image->convertToFormat(QImage::Format_ARGB32_Premultiplied);
    }
    const QPointF origin = view.area.topLeft();
    // One painter for a run of curves it draws (thousands of lone points of an Optuna-style
    // study), ended before the rasteriser writes the image's pixels itself.
    std::optional<QPainter> painter;
    for (const CurveData& curve : curves) {
        if (!isThin(curve.pen) || curve.points.size() == 1) {
            if (!painter) {
                painter.emplace(image);
                painter->translate(-origin);
                painter->setRenderHint(QPainter::Antialiasing, false);
            }
            paintCurves(&*painter, view, std::span(&curve, 1));
            continue;
        }
        painter.reset();
        ThinLines lines(image, curve.pen.color());
        QPointF from;
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const QPointF to = view.toPixel(curve.points[i].x(), curve.points[i].y()) - origin;
            if (i > 0) {
                lines.segment(from.x(), from.y(), to.x(), to.y(), i + 1 == curve.points.size());
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

void CurvesItem::setImage(QImage image, const CurveView& view) {
    image_ = std::move(image);
    imageView_ = view;
    update();
}

void CurvesItem::addToImage(std::span<const CurveData> curves) {
    if (image_.isNull() || curves.empty()) {
        return;
    }
    drawCurves(&image_, imageView_, curves);
    update();
}

void CurvesItem::setView(const CurveView& view) {
    if (view.area != view_.area) {
        prepareGeometryChange();
    }
    if (view != view_) {
        view_ = view;
        update();
    }
}

void CurvesItem::setOverlay(CurveData curve) {
    overlay_ = std::move(curve);
    update();
}

void CurvesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    painter->setClipRect(view_.area);
    if (vectorSource_ && isVectorDevice(painter)) {
        paintCurves(painter, view_, vectorSource_());
    } else if (!image_.isNull()) {
        if (imageView_ == view_) {
            painter->drawImage(view_.area.topLeft(), image_);
        } else {
            // Drawn for an earlier view: placed where its data lies now, until its successor
            // comes from the worker.
            const QRectF target = imageView_.placedIn(view_);
            if (!target.isEmpty() && target.width() < kMaxScale * view_.area.width() &&
                target.height() < kMaxScale * view_.area.height()) {
                painter->drawImage(target, image_);
            }
        }
    }
    paintCurves(painter, view_, std::span(&overlay_, 1));
    painter->restore();
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
        yieldToTheGuiThread();
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
