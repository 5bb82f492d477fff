// The learning curves as pixels and as paths: drawn into an image away from the GUI thread, and
// shown by one graphics item. The chart hands over an immutable snapshot (each curve already
// decimated to the pixel columns, in data coordinates, with its pen, and the view that maps data
// to pixels); a pool thread rasterises it and the image comes back by a queued signal. A newer
// request supersedes an older one: a superseded snapshot is skipped, or abandoned between
// curves, and its image never delivered. The item shows the image (scaled into a newer view
// until that view's image comes), and the curves as polylines on a vector device (SVG).
// Thread-safety: CurveView, CurveSnapshot, drawCurves() and renderCurves() are plain values and
// pure functions, usable on any thread; a CurveRenderer and a CurvesItem belong to the GUI thread.
#pragma once

#include <QGraphicsItem>
#include <QImage>
#include <QObject>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <vector>

class QPainter;

namespace tunedeck::app {

// How data maps onto the plot area's pixels: a linear x, and a linear or base-10 log y.
struct CurveView {
    QRectF area;  // the plot area, in the chart's scene coordinates
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    bool logY = false;
    int xKind = 0;  // which quantity x is (iteration, wall time): images of two kinds never mix

    QPointF toPixel(double x, double y) const;
    // Where the data rectangle this view shows lands in `other` (to show an image drawn for
    // this view in another one, scaled, until its own image is ready). Empty when it cannot.
    QRectF placedIn(const CurveView& other) const;
    bool operator==(const CurveView& other) const = default;
};

struct CurveData {
    std::vector<QPointF> points;  // data coordinates, x ascending
    QPen pen;
};

struct CurveSnapshot {
    CurveView view;
    std::vector<CurveData> curves;
};

// Polylines in pixels, in the order they are drawn, through `painter` (vector output, the thick
// best trial's line), cut to the view's plot area.
void paintCurves(QPainter* painter, const CurveView& view, std::span<const CurveData> curves);

// The same into `image`, which covers the view's plot area, without antialiasing. Thin solid
// pens (every curve but the best) are drawn by a line rasteriser of its own: QPainter's raster
// engine hands each 255-pixel batch of a thin line to Qt's thread pool to blend, and on a busy
// two-core machine that costs 3 to 15 times the drawing itself (430 ms to 2.6 s for a million
// points, against about 130 ms here). The lines look as QPainter's aliased cosmetic pen draws
// them (Bresenham's line, a pixel off here and there); a polyline blends each join once.
void drawCurves(QImage* image, const CurveView& view, std::span<const CurveData> curves);

// A transparent image of the view's plot area with every curve drawn, without antialiasing.
// With `latest`, the render gives up (a null image) once `latest` moved past `ticket`.
QImage renderCurves(const CurveSnapshot& snapshot, const std::atomic<quint64>* latest = nullptr,
                    quint64 ticket = 0);

// Every curve of the chart but the best, rasterised into one image of the plot area, and the
// best trial's curve drawn over it (it changes often; the image does not).
class CurvesItem : public QGraphicsItem {
  public:
    // Shows `image`, drawn for `view`.
    void setImage(QImage image, const CurveView& view);
    // Draws `curves` into the image, in the image's own view.
    void addToImage(std::span<const CurveData> curves);
    // The view the chart shows now. An image drawn for another view is shown scaled into it
    // until its own arrives.
    void setView(const CurveView& view);
    void setOverlay(CurveData curve);
    // On a vector device (an SVG file) paint() draws these curves as polylines instead of the
    // image, so the file holds lines, not pixels.
    void setVectorSource(std::function<std::vector<CurveData>()> source) {
        vectorSource_ = std::move(source);
    }
    QRectF boundingRect() const override { return view_.area; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  private:
    CurveView view_;
    QImage image_;
    CurveView imageView_;
    CurveData overlay_;
    std::function<std::vector<CurveData>()> vectorSource_;
};

class CurveRenderer : public QObject {
    Q_OBJECT
  public:
    explicit CurveRenderer(QObject* parent = nullptr);
    ~CurveRenderer() override;

    // Starts rasterising `snapshot` on the renderer's own thread; returns its ticket. Only the
    // latest ticket's image is ever delivered.
    quint64 render(std::shared_ptr<const CurveSnapshot> snapshot);
    // True from render() until the latest ticket's image was delivered.
    bool busy() const { return delivered_ != latest_.load(); }
    // Drops whatever is pending or running (the chart drew the image itself).
    void cancel();

  signals:
    void rendered(quint64 ticket, const QImage& image);

  private:
    void deliver(quint64 ticket, const QImage& image);

    // One thread: a newer snapshot waits for the running one (which then gives up between
    // curves) instead of competing with it for the two cores an app may have.
    QThreadPool pool_;
    std::atomic<quint64> latest_{0};
    quint64 delivered_ = 0;
};

}  // namespace tunedeck::app
