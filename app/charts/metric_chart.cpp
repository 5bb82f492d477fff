#include "charts/metric_chart.h"

#include <QFileInfo>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QSvgGenerator>
#include <QValueAxis>
#include <cmath>

#include "charts/curve_legend.h"
#include "charts/decimate.h"

namespace tunedeck::app {

namespace {

constexpr int kFrameMs = 34;  // at most 30 redraws a second (29.4)
// Fewer points than this make a whole image in about a millisecond: drawn at once, without the
// round trip to the worker (a selected trial or two, the first seconds of a run). Bigger
// images drawn here cost 5 ms and more a frame (bench_app_stream).
constexpr std::size_t kDrawNowPoints = 2000;
// The points decimated into a snapshot per turn of the event loop: about a millisecond or two,
// so a snapshot of a million points never holds the GUI thread for long.
constexpr std::size_t kBuildPointsPerTurn = 50000;
// The narrowest decimation, for a chart not laid out yet.
constexpr int kMinColumns = 50;
constexpr int kChartMargin = 4;
// Between the plot and the legend: the x axis's last label reaches half its width past the plot.
constexpr double kLegendGap = 14;
// How far from a curve the pointer may be and still read it or click it: a thin line is hard to
// hit exactly.
constexpr double kHitPixels = 8;

// Heckbert's loose labels (Graphics Gems I), as QValueAxis::applyNiceNumbers() finds them. That
// call lays its axis out anew (a text layout per label) at each of its range and tick changes,
// and a fit made four: computed here, the axes change at most once each.
struct NiceAxis {
    double min = 0, max = 1;
    int ticks = 0;
};

double niceNumber(double x, bool ceiling) {
    const double z = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / z;
    if (ceiling) {
        return (q <= 1.0 ? 1 : q <= 2.0 ? 2 : q <= 5.0 ? 5 : 10) * z;
    }
    return (q < 1.5 ? 1 : q < 3.0 ? 2 : q < 7.0 ? 5 : 10) * z;
}

NiceAxis niceAxis(double min, double max) {
    constexpr int kTicks = 5;  // QValueAxis's default
    if (!(max > min) || !std::isfinite(max - min)) {
        return {min, max, 0};
    }
    const double step = niceNumber(niceNumber(max - min, true) / (kTicks - 1), false);
    const double low = std::floor(min / step);
    const double high = std::ceil(max / step);
    return {low * step, high * step, int(high - low) + 1};
}

// Sets an axis's range (and ticks, when > 0) only where they change: each change lays it out.
void applyRange(QAbstractAxis* axis, double min, double max, int ticks) {
    if (auto* value = qobject_cast<QValueAxis*>(axis)) {
        if (value->min() != min || value->max() != max) {
            value->setRange(min, max);
        }
        if (ticks > 0 && value->tickCount() != ticks) {
            value->setTickCount(ticks);
        }
    } else if (auto* log = qobject_cast<QLogValueAxis*>(axis)) {
        if (log->min() != min || log->max() != max) {
            log->setRange(min, max);
        }
    } else {
        axis->setRange(min, max);
    }
}

}  // namespace

MetricChart::MetricChart(const ExperimentData* data, QWidget* parent)
    : QChartView(parent), data_(data), ranking_(data) {
    chart()->legend()->hide();
    chart()->setMargins(QMargins(kChartMargin, kChartMargin, kChartMargin, kChartMargin));
    setRenderHint(QPainter::Antialiasing, false);
    setFocusPolicy(Qt::StrongFocus);
    setRubberBand(QChartView::NoRubberBand);  // our own: the chart has no series to zoom
    curves_ = new CurvesItem;
    curves_->setZValue(10);
    curves_->setVectorSource([this] { return allCurves(bestRow(), view_); });
    chart()->scene()->addItem(curves_);
    legend_ = new CurveLegend;
    legend_->setToolTip(tr("Select rows in the table to name their curves here; up to %1 get a "
                           "colour each.")
                            .arg(kDistinctTrialColors));
    chart()->scene()->addItem(legend_);
    readout_ = new CurveReadout;
    chart()->scene()->addItem(readout_);
    viewport()->setMouseTracking(true);  // the readout follows the pointer without a button
    band_ = new QRubberBand(QRubberBand::Rectangle, this);
    connect(&renderer_, &CurveRenderer::rendered, this, &MetricChart::onRendered);
    frame_.setInterval(kFrameMs);
    connect(&frame_, &QTimer::timeout, this, &MetricChart::onFrame);
    frame_.start();
    connect(chart(), &QChart::plotAreaChanged, this, [this] { dirty_ = true; });
    rebuildAxes();
}

void MetricChart::setCurves(const ExperimentData* curves) {
    curves = curves ? curves : ranking_;
    if (curves != data_) {
        data_ = curves;
        colorsStale_ = true;
        rebuildAxes();  // its metric's title; nothing drawn or measured still holds
    }
}

int MetricChart::bestRow() const {
    const int best = ranking_->bestRow();
    if (data_ == ranking_ || best < 0) {
        return best;
    }
    return data_->rowOf(ranking_->trials()[std::size_t(best)].id);
}

void MetricChart::markDirty() {
    dirty_ = true;
}

void MetricChart::invalidate() {
    ++generation_;
    dirty_ = true;
}

void MetricChart::setVisibleTrials(const std::set<QString>& trialIds) {
    visible_ = trialIds;
    colorsStale_ = true;
    zoomed_ = false;
    refit_ = true;
    extent_ = {};
    invalidate();
}

void MetricChart::setXAxis(XAxis axis) {
    xAxis_ = axis;
    rebuildAxes();
}

void MetricChart::setLogScale(bool on) {
    logScale_ = on;
    rebuildAxes();
}

void MetricChart::setSmoothing(double amount) {
    smoothing_ = std::clamp(amount, 0.0, 0.99);
    invalidate();
}

void MetricChart::resetZoom() {
    zoomed_ = false;
    refit_ = true;
    dirty_ = true;
}

void MetricChart::rebuildAxes() {
    QChart* c = chart();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        axis->deleteLater();
    }
    auto* x = new QValueAxis;
    x->setTitleText(xAxis_ == XAxis::Iteration ? tr("iteration") : tr("seconds"));
    x->setLabelFormat(QStringLiteral("%g"));
    QAbstractAxis* y = nullptr;
    if (logScale_) {
        auto* log = new QLogValueAxis;
        log->setLabelFormat(QStringLiteral("%g"));
        y = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setLabelFormat(QStringLiteral("%g"));
        y = linear;
    }
    y->setTitleText(data_->metric());
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    // QtCharts draws no axis that no series is attached to: before the first result (the curves
    // are an image of their own) the axes would be missing. An empty series holds them.
    c->removeAllSeries();
    auto* anchor = new QLineSeries;
    c->addSeries(anchor);
    anchor->attachAxis(x);
    anchor->attachAxis(y);
    // Called also when another experiment was loaded: nothing drawn or measured still holds.
    zoomed_ = false;
    refit_ = true;
    extent_ = {};
    seen_.clear();
    invalidate();
}

void MetricChart::setView(double xMin, double xMax, double yMin, double yMax, int xTicks,
                          int yTicks) {
    viewXMin_ = xMin;
    viewXMax_ = xMax > xMin ? xMax : xMin + 1;
    viewYMin_ = yMin;
    viewYMax_ = yMax > yMin ? yMax : yMin + 1;
    const QList<QAbstractAxis*> xs = chart()->axes(Qt::Horizontal);
    const QList<QAbstractAxis*> ys = chart()->axes(Qt::Vertical);
    if (!xs.isEmpty() && !ys.isEmpty()) {
        applyRange(xs.first(), viewXMin_, viewXMax_, xTicks);
        applyRange(ys.first(), viewYMin_, viewYMax_, yTicks);
    }
}

QPointF MetricChart::toValue(QPointF pixel) const {
    const QRectF area = chart()->plotArea();
    const double fx = (pixel.x() - area.left()) / area.width();
    const double fy = (area.bottom() - pixel.y()) / area.height();
    const double x = viewXMin_ + fx * (viewXMax_ - viewXMin_);
    const double y = logScale_
                         ? std::pow(10.0, std::log10(viewYMin_) +
                                              fy * (std::log10(viewYMax_) - std::log10(viewYMin_)))
                         : viewYMin_ + fy * (viewYMax_ - viewYMin_);
    return {x, y};
}

void MetricChart::onFrame() {
    if (dirty_ && isVisible()) {
        advance();
    }
}

QPen MetricChart::penFor(int row, int best) const {
    const QColor color = colors_.of(row, row == best);
    if (row == best) {
        return QPen(color, 3.0);
    }
    if (colors_.distinct()) {
        return QPen(color, 2.0);  // a few curves, each to be told by its colour: solid, wider
    }
    QColor faint = color;
    faint.setAlpha(170);  // where a thousand curves cross, the best and the chosen stand out
    return QPen(faint, 1.0);
}

QColor MetricChart::colorOf(int row) const {
    return colors_.of(row, row == bestRow());
}

void MetricChart::updateColors() {
    const auto& trials = data_->trials();
    if (!colorsStale_ && trials.size() == colorTrials_) {
        return;
    }
    colorsStale_ = false;
    colorTrials_ = trials.size();
    std::vector<int> rows;
    for (int row = 0; row < int(trials.size()); ++row) {
        if (visible_.empty() || visible_.count(trials[std::size_t(row)].id) > 0) {
            rows.push_back(row);
        }
    }
    TrialColors colors(std::move(rows));
    if (!(colors == colors_)) {
        colors_ = std::move(colors);
        invalidate();
    }
}

void MetricChart::setLegendVisible(bool on) {
    legend_->setEnabled(on);
    updateLegend();  // the plot takes the legend's width back, or gives it up
}

void MetricChart::updateLegend() {
    const QColor text = chart()->titleBrush().color();
    const QColor background = chart()->backgroundBrush().color();
    if (legend_->brush().color().rgb() != background.rgb() ||
        readout_->brush().color().rgb() != background.rgb()) {
        legend_->setColors(text, background);
        readout_->setColors(text, background);
    }
    const auto& trials = data_->trials();
    const int best = bestRow();
    // The best trial first: the thick line is the one asked about, and it stays named when the
    // legend has no room for every trial.
    std::vector<LegendEntry> entries;
    if (best >= 0 && shows(trials[std::size_t(best)])) {
        entries.push_back({penFor(best, best), tr("%1 (best)").arg(trials[std::size_t(best)].id)});
    }
    int others = 0;
    for (int row = 0; row < int(trials.size()); ++row) {
        const TrialRow& t = trials[std::size_t(row)];
        if (row == best || !shows(t)) {
            continue;
        }
        if (colors_.distinct()) {
            entries.push_back({penFor(row, best), t.id});
        } else {
            ++others;
        }
    }
    if (others > 0) {
        entries.push_back({QPen(Qt::NoPen), tr("%n other trial(s)", nullptr, others)});
    }
    // Beside the plot, from its top to the chart's bottom: the chart gives up the width on its
    // right (its margin), so the legend covers no curve's last steps, where they are read.
    const QRectF area = chart()->plotArea();
    const int fit = legend_->linesThatFit(size().height() - area.top());
    if (int(entries.size()) > fit) {
        const int hidden = int(entries.size()) - (fit - 1);
        entries.resize(std::size_t(std::max(0, fit - 1)));
        entries.push_back({QPen(Qt::NoPen), tr("and %n more", nullptr, hidden)});
    }
    legend_->setEntries(entries);
    const int right = kChartMargin + int(std::ceil(legend_->widthTaken()));
    if (chart()->margins().right() != right) {
        chart()->setMargins(QMargins(kChartMargin, kChartMargin, right, kChartMargin));
    }
    legend_->setPos(area.right() + kLegendGap, area.top());
}

std::optional<MetricChart::CurveHit> MetricChart::hitAt(QPointF scenePos) const {
    const QRectF area = view_.area;
    if (!area.contains(scenePos) || area.width() <= 0) {
        return std::nullopt;
    }
    const double xPerPixel = (view_.xMax - view_.xMin) / area.width();
    const double x = view_.xMin + (scenePos.x() - area.left()) * xPerPixel;
    const double reach = kHitPixels * xPerPixel;
    const double alpha = 1.0 - smoothing_;
    std::optional<CurveHit> hit;
    double nearest = kHitPixels;
    const auto& trials = data_->trials();
    for (int row = 0; row < int(trials.size()); ++row) {
        const TrialRow& t = trials[std::size_t(row)];
        if (!shows(t)) {
            continue;
        }
        const std::vector<double>& xs = xsOf(t);
        const std::size_t n = std::min(xs.size(), t.values.size());
        const auto end = xs.begin() + long(n);
        // The points within reach, and one beyond each side: a line between two far apart
        // points passes under the pointer too.
        std::size_t from = std::size_t(std::lower_bound(xs.begin(), end, x - reach) - xs.begin());
        std::size_t to = std::size_t(std::upper_bound(xs.begin(), end, x + reach) - xs.begin());
        from = from > 0 ? from - 1 : 0;
        to = std::min(to + 1, n);
        if (from >= to) {
            continue;
        }
        // Drawn values: smoothed as the chart draws them, which needs the curve up to here.
        std::vector<double> drawn(to - from);
        double level = 0;
        for (std::size_t i = alpha < 1.0 ? 0 : from; i < to; ++i) {
            level =
                alpha >= 1.0 || i == 0 ? t.values[i] : alpha * t.values[i] + (1 - alpha) * level;
            if (i >= from) {
                drawn[i - from] = level;
            }
        }
        QPointF previous;
        for (std::size_t i = from; i < to; ++i) {
            const QPointF pixel = view_.toPixel(xs[i], drawn[i - from]);
            double distance = QLineF(pixel, scenePos).length();
            std::size_t index = i;
            QPointF at = pixel;
            if (i > from) {
                // The line from the previous point: the nearer point in x is read.
                const QLineF segment(previous, pixel);
                const QPointF d = pixel - previous;
                const double length2 = QPointF::dotProduct(d, d);
                const double along =
                    length2 > 0 ? std::clamp(QPointF::dotProduct(scenePos - previous, d) / length2,
                                             0.0, 1.0)
                                : 0.0;
                const double toLine = QLineF(previous + along * d, scenePos).length();
                if (toLine < distance) {
                    distance = toLine;
                    index = along < 0.5 ? i - 1 : i;
                    at = along < 0.5 ? previous : pixel;
                }
            }
            if (distance < nearest) {
                nearest = distance;
                hit = CurveHit{row, index, at, drawn[index - from]};
            }
            previous = pixel;
        }
    }
    return hit;
}

void MetricChart::updateHover(QPointF viewPos) {
    hover_ = viewPos;
    const std::optional<CurveHit> hit = hitAt(mapToScene(viewPos.toPoint()));
    if (!hit) {
        readout_->hide();
        return;
    }
    const TrialRow& t = data_->trials()[std::size_t(hit->row)];
    const double x = xsOf(t)[hit->index];
    const double value = t.values[hit->index];
    const QString step = xAxis_ == XAxis::Iteration
                             ? tr("iteration %1").arg(QString::number(x, 'g', 10))
                             : tr("%1 s").arg(QString::number(x, 'f', 1));
    const QString reading =
        smoothing_ > 0 && hit->drawn != value
            ? tr("%1 = %2 (smoothed %3)")
                  .arg(data_->metric(), QString::number(value, 'g', 6),
                       QString::number(hit->drawn, 'g', 6))
            : QStringLiteral("%1 = %2").arg(data_->metric(), QString::number(value, 'g', 6));
    readout_->show(QStringLiteral("%1\n%2\n%3").arg(t.id, step, reading), hit->pixel,
                   colorOf(hit->row), view_.area);
}

bool MetricChart::shows(const TrialRow& trial) const {
    return !trial.values.empty() && (visible_.empty() || visible_.count(trial.id) > 0);
}

const std::vector<double>& MetricChart::xsOf(const TrialRow& trial) const {
    return xAxis_ == XAxis::Iteration ? trial.iterations : trial.times;
}

CurveView MetricChart::currentView() const {
    CurveView view;
    view.area = chart()->plotArea();
    view.xMin = viewXMin_;
    view.xMax = viewXMax_;
    view.yMin = viewYMin_;
    view.yMax = viewYMax_;
    view.logY = logScale_;
    view.xKind = int(xAxis_);
    return view;
}

void MetricChart::updateExtent() {
    const auto& trials = data_->trials();
    extent_.points.resize(trials.size(), 0);
    for (std::size_t row = 0; row < trials.size(); ++row) {
        const TrialRow& t = trials[row];
        std::size_t& counted = extent_.points[row];
        if (counted >= t.values.size() || !shows(t)) {
            continue;
        }
        const std::vector<double>& xs = xsOf(t);
        for (std::size_t i = counted; i < t.values.size(); ++i) {
            const double y = t.values[i];
            if (logScale_ && y <= 0) {
                continue;
            }
            if (!extent_.any) {
                extent_.xMin = extent_.xMax = xs[i];
                extent_.yMin = extent_.yMax = y;
                extent_.any = true;
            }
            extent_.xMin = std::min(extent_.xMin, xs[i]);
            extent_.xMax = std::max(extent_.xMax, xs[i]);
            extent_.yMin = std::min(extent_.yMin, y);
            extent_.yMax = std::max(extent_.yMax, y);
        }
        counted = t.values.size();
    }
}

bool MetricChart::fitView(bool onlyWhenOutside) {
    if (!extent_.any) {
        return false;
    }
    const double xMin = extent_.xMin, xMax = extent_.xMax;
    const double yMin = extent_.yMin, yMax = extent_.yMax;
    if (onlyWhenOutside && xMin >= viewXMin_ && xMax <= viewXMax_ && yMin >= viewYMin_ &&
        yMax <= viewYMax_) {
        return false;
    }
    // Room to grow while the run reports: a quarter more iterations, a tenth more of the
    // metric's range; none once it ended. Round ticks (0.25, 0.3, ...) on linear axes.
    // Every point at one x (trials that report once, at iteration 1): that x in the middle, not
    // on the left axis, between whole steps (no "iteration 0.5").
    const NiceAxis x = xMax == xMin
                           ? NiceAxis{xMin - 1, xMax + 1, 3}
                           : niceAxis(xMin, ended_ ? xMax : xMax + (xMax - xMin) * 0.25 + 1);
    if (logScale_) {
        setView(x.min, x.max, yMin / 1.5, yMax * 1.5, x.ticks);
    } else {
        const double pad = yMax > yMin ? (yMax - yMin) * 0.1 : std::abs(yMax) * 0.1 + 1e-9;
        const NiceAxis y = niceAxis(yMin - pad, yMax + pad);
        setView(x.min, x.max, y.min, y.max, x.ticks, y.ticks);
    }
    return true;
}

void MetricChart::prepareView(bool refit) {
    // A restored trial's curve went back, or the data is another experiment's: the image and
    // the extent no longer hold.
    updateColors();
    const auto& trials = data_->trials();
    bool rewound = trials.size() < seen_.size();
    seen_.resize(trials.size());
    for (std::size_t row = 0; row < trials.size(); ++row) {
        const TrialRow& t = trials[row];
        if (t.rewinds != seen_[row].rewinds || t.values.size() < seen_[row].points) {
            rewound = true;
        }
        seen_[row] = {t.rewinds, t.values.size()};
    }
    if (rewound) {
        extent_ = {};
        invalidate();
    }
    const QString status = data_->experimentStatus();
    const bool ended = !status.isEmpty() && status != QLatin1String("running");
    if (ended != ended_) {
        ended_ = ended;
        refit_ = true;
    }
    updateExtent();
    // A refit asked for waits for data to fit: a run opened before its first result keeps
    // asking, or its axes would stay at the new axes' 0..1 under curves drawn to the old view.
    if (!zoomed_ && fitView(!(refit || refit_))) {
        refit_ = false;
    }
    view_ = currentView();
    curves_->setView(view_);
}

void MetricChart::advance() {
    dirty_ = false;
    ++redraws_;
    prepareView(false);
    updateLegend();
    if (hover_ && readout_->isVisible()) {
        updateHover(*hover_);  // the curves moved under the pointer
    }
    // The automatic view changes only when data leaves it, so most frames just add segments.
    const bool imageCurrent = image_.generation == generation_ && image_.view == view_;
    const bool pendingCurrent =
        (pendingTicket_ != 0 && renderer_.busy() && pending_.generation == generation_ &&
         pending_.view == view_) ||
        (build_ && build_->state.generation == generation_ && build_->state.view == view_);
    if (!imageCurrent && !pendingCurrent) {
        requestImage(false);
    }
    if (image_.generation == generation_) {
        addIncrements();
    }
    updateOverlay();
    updateNote();
}

void MetricChart::updateNote() {
    QString note;
    const auto& trials = data_->trials();
    if (!data_->metric().isEmpty() &&
        std::none_of(trials.begin(), trials.end(),
                     [](const TrialRow& t) { return !t.values.empty(); })) {
        note = ended_ ? tr("No trial reported %1").arg(data_->metric())
                      : tr("Waiting for the first result of %1").arg(data_->metric());
    }
    if (!noteItem_) {
        noteItem_ = new QGraphicsSimpleTextItem;
        noteItem_->setZValue(20);
        noteItem_->setBrush(palette().color(QPalette::PlaceholderText));
        chart()->scene()->addItem(noteItem_);
    }
    note_ = note;
    noteItem_->setText(note);
    noteItem_->setVisible(!note.isEmpty());
    const QRectF area = chart()->plotArea();
    noteItem_->setPos(area.center() - noteItem_->boundingRect().center());
}

CurveData MetricChart::curveOf(int row, int best, const CurveView& view, double* lastLevel) const {
    CurveData curve;
    curve.pen = penFor(row, best);
    const TrialRow& t = data_->trials()[std::size_t(row)];
    if (shows(t)) {
        decimateInto(xsOf(t), t.values, view.xMin, view.xMax,
                     std::max(int(view.area.width()), kMinColumns), 1.0 - smoothing_, &curve.points,
                     lastLevel);
    }
    return curve;
}

std::vector<CurveData> MetricChart::allCurves(int best, const CurveView& view) const {
    std::vector<CurveData> curves;
    const auto& trials = data_->trials();
    for (int row = 0; row < int(trials.size()); ++row) {
        if (row != best && shows(trials[std::size_t(row)])) {
            curves.push_back(curveOf(row, best, view));
        }
    }
    return curves;
}

int MetricChart::requestImage(bool now) {
    Build build;
    build.snapshot = std::make_shared<CurveSnapshot>();
    build.snapshot->view = view_;
    build.state.view = view_;
    build.state.generation = generation_;
    build.state.best = bestRow();
    build_ = std::move(build);
    renderer_.cancel();  // an image for an older view: the worker has better things to do
    pendingTicket_ = 0;
    return continueBuild(now);
}

int MetricChart::continueBuild(bool now) {
    if (!build_) {
        return 0;
    }
    Build& build = *build_;
    const auto& trials = data_->trials();
    ImageState& state = build.state;
    state.points.resize(trials.size(), 0);
    state.levels.resize(trials.size(), 0);
    std::size_t read = 0;
    for (; build.nextRow < trials.size() && (now || read < kBuildPointsPerTurn); ++build.nextRow) {
        const int row = int(build.nextRow);
        const TrialRow& t = trials[build.nextRow];
        state.points[build.nextRow] = t.values.size();  // what arrives later is an increment
        if (row == state.best || !shows(t)) {
            continue;
        }
        read += t.values.size();
        build.snapshot->curves.push_back(
            curveOf(row, state.best, view_, &state.levels[build.nextRow]));
        build.points += build.snapshot->curves.back().points.size();
    }
    if (build.nextRow < trials.size()) {
        if (!buildScheduled_) {
            buildScheduled_ = true;
            QTimer::singleShot(0, this, [this] {
                buildScheduled_ = false;
                continueBuild(false);
            });
        }
        return 0;
    }
    const std::size_t points = build.points;
    std::shared_ptr<CurveSnapshot> snapshot = std::move(build.snapshot);
    pending_ = std::move(build.state);
    build_.reset();
    if (now || points < kDrawNowPoints) {
        image_ = std::move(pending_);
        curves_->setImage(renderCurves(*snapshot), image_.view);
        if (image_.generation == generation_) {
            addIncrements();  // what came while the snapshot was taken, over several turns
        }
    } else {
        pendingTicket_ = renderer_.render(std::move(snapshot));
    }
    return int(points);
}

void MetricChart::onRendered(quint64 ticket, const QImage& image) {
    if (ticket != pendingTicket_) {
        return;
    }
    pendingTicket_ = 0;
    image_ = std::move(pending_);
    curves_->setImage(image, image_.view);
    if (image_.generation == generation_) {
        addIncrements();  // what arrived while it was drawn
    }
    if (image_.generation != generation_ || image_.view != view_) {
        dirty_ = true;
    }
}

void MetricChart::addIncrements() {
    const auto& trials = data_->trials();
    const int best = bestRow();
    image_.points.resize(trials.size(), 0);
    image_.levels.resize(trials.size(), 0);
    std::vector<CurveData> pieces;
    // The best trial lives in the overlay; one that lost that place joins the image, thin.
    if (best != image_.best) {
        const int former = image_.best;
        if (former >= 0 && former < int(trials.size())) {
            pieces.push_back(
                curveOf(former, best, image_.view, &image_.levels[std::size_t(former)]));
            image_.points[std::size_t(former)] = trials[std::size_t(former)].values.size();
        }
        image_.best = best;
    }
    // Each trial's new points, joined to the last point drawn.
    const double alpha = 1.0 - smoothing_;
    for (int row = 0; row < int(trials.size()); ++row) {
        const TrialRow& t = trials[std::size_t(row)];
        std::size_t& drawn = image_.points[std::size_t(row)];
        double& level = image_.levels[std::size_t(row)];
        if (row == best || !shows(t)) {
            drawn = t.values.size();
            level = t.values.empty() ? 0 : t.values.back();
            continue;
        }
        if (t.values.size() <= drawn) {
            continue;
        }
        const std::vector<double>& xs = xsOf(t);
        CurveData piece;
        piece.pen = penFor(row, best);
        if (drawn > 0) {
            piece.points.emplace_back(xs[drawn - 1], level);
        }
        for (std::size_t i = drawn; i < t.values.size(); ++i) {
            level = i == 0 ? t.values[i] : alpha * t.values[i] + (1 - alpha) * level;
            piece.points.emplace_back(xs[i], level);
        }
        drawn = t.values.size();
        pieces.push_back(std::move(piece));
    }
    curves_->addToImage(pieces);
}

void MetricChart::updateOverlay() {
    const int best = bestRow();
    const auto& trials = data_->trials();
    if (best < 0 || !shows(trials[std::size_t(best)])) {
        curves_->setOverlay({});
        overlayResults_ = 0;
        return;
    }
    curves_->setOverlay(curveOf(best, best, view_));
    overlayResults_ = trials[std::size_t(best)].values.size();
}

int MetricChart::redraw() {
    prepareView(true);
    const int points = requestImage(true);
    updateOverlay();
    const auto& trials = data_->trials();
    const int best = bestRow();
    int overlayPoints = 0;
    if (best >= 0 && shows(trials[std::size_t(best)])) {
        overlayPoints = int(curveOf(best, best, view_).points.size());
    }
    return points + overlayPoints;
}

std::size_t MetricChart::shownResults() const {
    if (image_.generation != generation_ || image_.view != currentView()) {
        return 0;
    }
    std::size_t shown = 0;
    for (std::size_t points : image_.points) {
        shown += points;
    }
    return shown;
}

bool MetricChart::saveSvg(const QString& path, QString* error) {
    advance();  // the view and the best trial's line as of now
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size());
    svg.setViewBox(QRect(QPoint(0, 0), size()));
    svg.setTitle(data_->metric());
    QPainter painter;
    if (!painter.begin(&svg)) {
        if (error) {
            *error = tr("Cannot write %1").arg(path);
        }
        return false;
    }
    render(&painter);
    painter.end();
    if (QFileInfo(path).size() == 0) {
        if (error) {
            *error = tr("Cannot write %1").arg(path);
        }
        return false;
    }
    return true;
}

}  // namespace tunedeck::app
