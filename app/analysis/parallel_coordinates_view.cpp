#include "analysis/parallel_coordinates_view.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "models/config_text.h"

namespace tunedeck::app {

namespace {

constexpr int kRecomputeMs = 250;     // at most four recomputations a second
constexpr double kHitPixels = 5.0;    // how near the mouse a line must pass to be hovered
constexpr int kAntialiasBelow = 400;  // lines; above, antialiasing costs more than it shows
constexpr double kMarginLeft = 64;    // the first axis's tick labels
constexpr double kMarginTop = 40;     // axis titles
constexpr double kMarginBottom = 18;
constexpr double kMarginRight = 96;            // the colour legend
constexpr int kMaxCategoryLabels = 14;         // more categories than this: every n-th is labelled
constexpr int kSliceMs = 8;                    // lines drawn per event-loop turn stop after this
constexpr int kMaxEmphasised = 24;             // selected lines drawn thick; more are drawn thin
constexpr double kFadedBehindSelection = 0.3;  // the unselected lines' opacity
// With several objectives, a dominated trial's strength: paler than the front, yet not the
// faint grey of a trial with no value. Its ink is the text's, the front's the red the Pareto
// front plot and the scatter's stars use, so every view shows the front alike.
constexpr double kDominatedGoodness = 0.15;
const QColor kFrontColour(214, 39, 40);

// Plasma (matplotlib), cut before its palest yellow so the best lines read on a light
// background; from worst to best.
const QColor kScale[] = {QColor(0x0d, 0x08, 0x87), QColor(0x6a, 0x00, 0xa8),
                         QColor(0xb1, 0x2a, 0x90), QColor(0xe1, 0x64, 0x62),
                         QColor(0xfc, 0xa6, 0x36)};

QColor scaleColour(double t) {
    t = std::clamp(t, 0.0, 1.0) * (std::size(kScale) - 1);
    const int i = std::min(int(t), int(std::size(kScale)) - 2);
    const double f = t - i;
    const QColor& a = kScale[i];
    const QColor& b = kScale[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

double distanceToSegment(QPointF p, QPointF a, QPointF b) {
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t =
        length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF nearest = a + t * ab;
    return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

bool valid(QPointF p) {
    return std::isfinite(p.x()) && std::isfinite(p.y());
}

}  // namespace

ParallelCoordinatesView::ParallelCoordinatesView(const ExperimentData* data, QWidget* parent)
    : QWidget(parent), data_(data), throttle_(kRecomputeMs, [this] { recompute(); }) {
    setMouseTracking(true);
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
    render_.setInterval(0);
    connect(&render_, &QTimer::timeout, this, &ParallelCoordinatesView::renderSlice);
}

void ParallelCoordinatesView::refresh() {
    stale_ = true;
    if (isVisible()) {
        throttle_.request();
    }
}

void ParallelCoordinatesView::setSelectedTrials(const QStringList& ids) {
    selected_ = std::set<QString>(ids.begin(), ids.end());
    update();  // the lines' image stays; it is faded behind the selection when painted
}

void ParallelCoordinatesView::recompute() {
    stale_ = false;
    axes_.clear();
    for (ParameterScale& scale : parameterScales(*data_)) {
        if (scale.varies()) {
            axes_.push_back(std::move(scale));
        }
    }
    const std::vector<TrialRow>& trials = data_->trials();
    const bool multi = data_->isMultiObjective();
    objectiveAxes_ = multi ? int(data_->objectives().size()) : 1;
    const std::size_t parameters = axes_.size();
    // Each trial's score by the window's scope ("Best trial by"), as the bold rows are chosen.
    std::vector<std::vector<double>> scores(static_cast<std::size_t>(objectiveAxes_));
    for (int k = 0; k < objectiveAxes_; ++k) {
        scores[std::size_t(k)].reserve(trials.size());
        for (std::size_t r = 0; r < trials.size(); ++r) {
            scores[std::size_t(k)].push_back(objectiveValue(int(r), k));
        }
        axes_.push_back(ParameterScale::ofNumbers(
            multi ? data_->objectives()[std::size_t(k)].metric : data_->metric(),
            scores[std::size_t(k)]));
    }

    lines_.clear();
    lines_.reserve(trials.size());
    for (std::size_t r = 0; r < trials.size(); ++r) {
        const TrialRow& row = trials[r];
        Line line;
        line.id = row.id;
        line.fractions.reserve(axes_.size());
        for (std::size_t a = 0; a < parameters; ++a) {
            line.fractions.push_back(axes_[a].fraction(row.flatConfig.value(axes_[a].key)));
        }
        for (int k = 0; k < objectiveAxes_; ++k) {
            line.fractions.push_back(
                axes_[parameters + std::size_t(k)].fraction(scores[std::size_t(k)][r]));
        }
        if (multi) {
            // No value is "better" across objectives: the front is the best (isBest).
            if (data_->hasEveryObjective(int(r))) {
                line.goodness = data_->isBest(int(r)) ? 1.0 : kDominatedGoodness;
            }
        } else if (const double f = line.fractions.back(); std::isfinite(f)) {
            line.goodness = data_->minimize() ? 1.0 - f : f;
        }
        line.colour = lineColour(line.goodness);
        lines_.push_back(std::move(line));
    }
    // Trials without the metric first, then worst to best: the best end on top.
    std::stable_sort(lines_.begin(), lines_.end(), [](const Line& a, const Line& b) {
        const double ga = std::isnan(a.goodness) ? -1.0 : a.goodness;
        const double gb = std::isnan(b.goodness) ? -1.0 : b.goodness;
        return ga < gb;
    });
    placeLines();
    if (!brushes_.empty()) {
        updateBrushed();  // new trials, or an axis that grew
    }
}

double ParallelCoordinatesView::marginRight() const {
    // The colour bar 30 px in, then its words ("worst" is "schlechtester" in German), whole.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF metrics(small);
    const double widest = data_->isMultiObjective()
                              ? std::max(metrics.horizontalAdvance(tr("Pareto front")),
                                         metrics.horizontalAdvance(tr("dominated")))
                              : std::max(metrics.horizontalAdvance(tr("best")),
                                         metrics.horizontalAdvance(tr("worst")));
    return std::max(kMarginRight, 30 + 14 + 4 + widest + 6);
}

QRectF ParallelCoordinatesView::plotArea() const {
    return QRectF(kMarginLeft, kMarginTop, std::max(10.0, width() - kMarginLeft - marginRight()),
                  std::max(10.0, height() - kMarginTop - kMarginBottom));
}

double ParallelCoordinatesView::axisX(int axis) const {
    const QRectF area = plotArea();
    if (axes_.size() <= 1) {
        return area.center().x();
    }
    return area.left() + area.width() * axis / double(axes_.size() - 1);
}

void ParallelCoordinatesView::placeLines() {
    const QRectF area = plotArea();
    for (Line& line : lines_) {
        line.points.resize(line.fractions.size());
        for (std::size_t a = 0; a < line.fractions.size(); ++a) {
            const double f = line.fractions[a];
            line.points[a] = std::isfinite(f)
                                 ? QPointF(axisX(int(a)), area.bottom() - f * area.height())
                                 : QPointF(kNoValue, kNoValue);
        }
    }
    startRender();
    update();
}

QColor ParallelCoordinatesView::inkOf(double goodness) const {
    if (data_->isMultiObjective()) {
        return goodness >= 1.0 ? kFrontColour : palette().color(QPalette::Text);
    }
    return scaleColour(goodness);
}

QColor ParallelCoordinatesView::lineColour(double goodness) const {
    // The weaker, the paler: as if drawn see-through over the background, but opaque, which
    // the raster engine draws several times faster.
    const QColor base = palette().color(QPalette::Base);
    const QColor ink =
        std::isnan(goodness) ? palette().color(QPalette::PlaceholderText) : inkOf(goodness);
    // With several objectives the dominated lines are faint, as their points in the Pareto
    // front plot: the front is what the view is read for.
    const bool dominated = data_->isMultiObjective() && goodness < 1.0;
    const double strength = std::isnan(goodness) ? 0.4 : dominated ? 0.35 : 0.6 + 0.4 * goodness;
    const auto mix = [&](float a, float b) { return float(b + (a - b) * strength); };
    return QColor::fromRgbF(mix(ink.redF(), base.redF()), mix(ink.greenF(), base.greenF()),
                            mix(ink.blueF(), base.blueF()));
}

double ParallelCoordinatesView::objectiveValue(int row, int objective) const {
    return data_->isMultiObjective() ? data_->objectiveScore(row, std::size_t(objective))
                                     : data_->score(row);
}

const ParallelCoordinatesView::Line* ParallelCoordinatesView::lineOf(const QString& trialId) const {
    for (const Line& line : lines_) {
        if (line.id == trialId) {
            return &line;
        }
    }
    return nullptr;
}

QPointF ParallelCoordinatesView::vertexOf(const QString& trialId, int axis) const {
    const Line* line = lineOf(trialId);
    if (line == nullptr || axis < 0 || axis >= int(line->points.size())) {
        return {kNoValue, kNoValue};
    }
    return line->points[std::size_t(axis)];
}

QColor ParallelCoordinatesView::colourOf(const QString& trialId) const {
    const Line* line = lineOf(trialId);
    if (line == nullptr) {
        return {};
    }
    return std::isnan(line->goodness) ? line->colour : inkOf(line->goodness);
}

QString ParallelCoordinatesView::trialAt(QPointF pos) const {
    QString nearest;
    double best = kHitPixels;
    for (const Line& line : lines_) {
        for (std::size_t a = 0; a + 1 < line.points.size(); ++a) {
            const QPointF& p = line.points[a];
            const QPointF& q = line.points[a + 1];
            if (!valid(p) || !valid(q) || pos.x() < p.x() - kHitPixels ||
                pos.x() > q.x() + kHitPixels) {
                continue;
            }
            const double d = distanceToSegment(pos, p, q);
            if (d <= best) {  // later lines are drawn on top: they win ties
                best = d;
                nearest = line.id;
            }
        }
    }
    return nearest;
}

QString ParallelCoordinatesView::toolTipFor(const QString& trialId) const {
    const int row = data_->rowOf(trialId);
    if (row < 0) {
        return {};
    }
    const TrialRow& trial = data_->trials()[std::size_t(row)];
    QString text = QStringLiteral("<b>%1</b> &nbsp;%2").arg(trial.id.toHtmlEscaped(), trial.status);
    for (const QString& key : data_->configKeys()) {
        text += QStringLiteral("<br>%1: %2")
                    .arg(key.toHtmlEscaped(), configValueText(trial, key).toHtmlEscaped());
    }
    const bool multi = data_->isMultiObjective();
    for (int k = 0; k < (multi ? int(data_->objectives().size()) : 1); ++k) {
        const double score = objectiveValue(row, k);
        const QString shown = std::isnan(score) ? tr("none yet") : QString::number(score, 'g', 6);
        const QString metric = multi ? data_->objectives()[std::size_t(k)].metric : data_->metric();
        text +=
            QStringLiteral("<br><b>") +
            tr("%1, %2: %3").arg(metric.toHtmlEscaped(), scoreScopeText(data_->scope()), shown) +
            QStringLiteral("</b>");
    }
    if (multi && data_->isBest(row)) {
        text += QStringLiteral("<br>") + tr("On the Pareto front");
    }
    return text;
}

void ParallelCoordinatesView::startRender() {
    const qreal ratio = devicePixelRatioF();
    back_ = QImage((QSizeF(size()) * ratio).toSize(), QImage::Format_RGB32);
    back_.setDevicePixelRatio(ratio);
    back_.fill(palette().color(QPalette::Base));
    backNext_ = 0;
    renderSlice();
    if (!back_.isNull()) {
        render_.start();
    }
}

void ParallelCoordinatesView::renderSlice() {
    if (back_.isNull()) {
        render_.stop();
        return;
    }
    QElapsedTimer slice;
    slice.start();
    {
        QPainter painter(&back_);
        const bool smooth = int(lines_.size()) < kAntialiasBelow;
        painter.setRenderHint(QPainter::Antialiasing, smooth);
        // Opaque one-pixel pens without antialiasing take the raster engine's fast line path,
        // three to ten times faster than translucent or wider ones.
        const double width = smooth ? 1.2 : 1.0;
        while (backNext_ < int(lines_.size())) {
            const Line& line = lines_[std::size_t(backNext_++)];
            drawLine(painter, line, QPen(line.colour, width));
            if (backNext_ % 16 == 0 && slice.elapsed() >= kSliceMs) {
                return;
            }
        }
    }
    front_ = std::move(back_);
    back_ = QImage();
    render_.stop();
    update();
}

void ParallelCoordinatesView::drawLine(QPainter& painter, const Line& line, const QPen& pen) const {
    painter.setPen(pen);
    // Segment by segment: the antialiasing rasteriser works through a stroke's bounding box,
    // which for a whole polyline is most of the plot.
    for (std::size_t a = 0; a + 1 < line.points.size(); ++a) {
        if (valid(line.points[a]) && valid(line.points[a + 1])) {
            painter.drawLine(line.points[a], line.points[a + 1]);
        }
    }
}

void ParallelCoordinatesView::drawAxes(QPainter& painter) const {
    const QRectF area = plotArea();
    const QColor text = palette().color(QPalette::Text);
    QColor labelBack = palette().color(QPalette::Base);
    labelBack.setAlpha(200);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    QFont bold = font();
    bold.setBold(true);
    const double spacing =
        axes_.size() > 1 ? area.width() / double(axes_.size() - 1) : area.width();
    for (int a = 0; a < int(axes_.size()); ++a) {
        const ParameterScale& axis = axes_[std::size_t(a)];
        const double x = axisX(a);
        const bool isMetric = isObjectiveAxis(a);
        painter.setPen(QPen(text, isMetric ? 2.0 : 1.2));
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        // Title, elided to the room between axes.
        painter.setFont(bold);
        const QFontMetricsF boldMetrics(bold);
        QString title = axis.key;
        if (axis.kind == ParameterScale::Kind::Log) {
            title = tr("%1 (log)").arg(axis.key);
        } else if (isMetric) {
            title = tr("%1, %2").arg(axis.key, scoreScopeText(data_->scope()));
        }
        const double room = std::max(30.0, spacing - 6);
        title = boldMetrics.elidedText(title, Qt::ElideMiddle, room);
        const double titleWidth = boldMetrics.horizontalAdvance(title);
        const double titleX =
            std::clamp(x - titleWidth / 2, 2.0, double(width()) - titleWidth - 2.0);
        painter.drawText(QPointF(titleX, area.top() - 14), title);
        // Ticks and their labels, left of the axis on a backing so crossing lines stay legible.
        std::vector<std::pair<double, QString>> ticks;
        if (axis.kind == ParameterScale::Kind::Categorical) {
            const int every =
                int(axis.categories.size() + kMaxCategoryLabels - 1) / kMaxCategoryLabels;
            for (int c = 0; c < int(axis.categories.size()); c += every) {
                ticks.emplace_back(axis.fraction(QJsonValue(axis.categories[c])),
                                   axis.categories[c]);
            }
        } else {
            for (double v : axis.ticks(5)) {
                ticks.emplace_back(axis.fraction(v), QString::number(v, 'g', 4));
            }
        }
        painter.setFont(small);
        const QFontMetricsF metrics(small);
        for (const auto& [fraction, label] : ticks) {
            if (!std::isfinite(fraction)) {
                continue;
            }
            const double y = area.bottom() - fraction * area.height();
            painter.setPen(QPen(text, 1));
            painter.drawLine(QPointF(x - 4, y), QPointF(x, y));
            const QString shown =
                metrics.elidedText(label, Qt::ElideRight, std::min(kMarginLeft - 8, room * 0.6));
            const double w = metrics.horizontalAdvance(shown);
            const QRectF box(x - 6 - w - 2, y - metrics.height() / 2, w + 4, metrics.height());
            painter.fillRect(box, labelBack);
            painter.drawText(box, Qt::AlignCenter, shown);
        }
    }
}

void ParallelCoordinatesView::drawLegend(QPainter& painter) const {
    if (axes_.empty()) {
        return;
    }
    const QRectF area = plotArea();
    const ParameterScale& metric = axes_.back();
    if (data_->isMultiObjective()) {
        drawFrontLegend(painter, area);
        return;
    }
    // The bar right of the metric axis, its title beside it, its ends labelled on its right.
    const QRectF bar(width() - marginRight() + 30, area.top(), 14, area.height());
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    for (int i = 0; i <= 10; ++i) {
        gradient.setColorAt(i / 10.0, lineColour(1.0 - i / 10.0));  // as the lines look
    }
    painter.fillRect(bar, gradient);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawRect(bar);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    painter.setFont(small);
    const QFontMetricsF metrics(small);
    const double room = width() - bar.right() - 6;
    const QRectF right(bar.right() + 4, 0, room, metrics.height());
    if (metric.varies() || data_->bestRow() >= 0) {
        const double best = data_->minimize() ? metric.min : metric.max;
        const double worst = data_->minimize() ? metric.max : metric.min;
        const auto label = [&](double y, const QString& text) {
            painter.drawText(right.translated(0, y), Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(text, Qt::ElideRight, room));
        };
        label(bar.top(), QString::number(best, 'g', 4));
        label(bar.top() + metrics.height(), tr("best"));
        label(bar.bottom() - 2 * metrics.height(), tr("worst"));
        label(bar.bottom() - metrics.height(), QString::number(worst, 'g', 4));
    }
    painter.save();
    painter.translate(bar.left() - 4, bar.center().y());
    painter.rotate(-90);
    const QString title = metrics.elidedText(
        data_->metric().isEmpty() ? tr("metric") : data_->metric(), Qt::ElideRight, bar.height());
    painter.drawText(QRectF(-bar.height() / 2, -metrics.height(), bar.height(), metrics.height()),
                     Qt::AlignCenter, title);
    painter.restore();
}

void ParallelCoordinatesView::drawFrontLegend(QPainter& painter, const QRectF& area) const {
    // Two swatches instead of a scale: on the front, dominated (the colours the lines have).
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    painter.setFont(small);
    const QFontMetricsF metrics(small);
    const double left = width() - marginRight() + 30;
    const double room = width() - left - 20;
    double y = area.top();
    for (const auto& [goodness, text] :
         {std::pair{1.0, tr("Pareto front")}, std::pair{kDominatedGoodness, tr("dominated")}}) {
        const QRectF swatch(left, y + 2, 14, metrics.height() - 4);
        painter.fillRect(swatch, lineColour(goodness));
        painter.setPen(palette().color(QPalette::Text));
        painter.drawRect(swatch);
        painter.drawText(QRectF(left + 18, y, room, metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(text, Qt::ElideRight, room));
        y += metrics.height() + 4;
    }
}

void ParallelCoordinatesView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (axes_.empty()) {
        return;
    }
    if (!front_.isNull()) {
        // Scaled for the moment a resize takes to render anew; faded behind a selection.
        painter.setOpacity(selected_.empty() && !brushed_ ? 1.0 : kFadedBehindSelection);
        painter.drawImage(QRectF(rect()), front_);
        painter.setOpacity(1.0);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    drawAxes(painter);
    drawLegend(painter);
    if (brushed_) {
        painter.setRenderHint(QPainter::Antialiasing, brushed_->size() < kAntialiasBelow);
        for (const Line& line : lines_) {
            if (brushed_->count(line.id) > 0 && selected_.count(line.id) == 0) {
                drawLine(painter, line,
                         QPen(std::isnan(line.goodness) ? line.colour : inkOf(line.goodness), 1.5));
            }
        }
        painter.setRenderHint(QPainter::Antialiasing, true);
    }
    drawBrushes(painter);
    int emphasised = 0;
    for (const Line& line : lines_) {
        if (selected_.count(line.id) == 0 || line.id == hovered_) {
            continue;
        }
        const QColor colour = std::isnan(line.goodness) ? line.colour : inkOf(line.goodness);
        if (++emphasised <= kMaxEmphasised) {
            drawLine(painter, line, QPen(palette().color(QPalette::Text), 4.5));
            drawLine(painter, line, QPen(colour, 2.5));
        } else {
            painter.setRenderHint(QPainter::Antialiasing, false);
            drawLine(painter, line, QPen(colour, 1.0));
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (const Line* line = lineOf(hovered_)) {
        drawLine(painter, *line, QPen(palette().color(QPalette::Highlight), 3.5));
    }
}

void ParallelCoordinatesView::resizeEvent(QResizeEvent*) {
    if (!axes_.empty()) {
        placeLines();
    }
}

void ParallelCoordinatesView::showEvent(QShowEvent*) {
    if (stale_) {
        throttle_.request();
    }
}

void ParallelCoordinatesView::changeEvent(QEvent* event) {
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) &&
        !axes_.empty()) {
        recompute();  // the faded colours mix with the background
    }
    QWidget::changeEvent(event);
}

bool ParallelCoordinatesView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString trial = trialAt(help->pos());
        if (trial.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), toolTipFor(trial), this);
        }
        return true;
    }
    return QWidget::event(event);
}

void ParallelCoordinatesView::mouseMoveEvent(QMouseEvent* event) {
    if (dragAxis_ >= 0) {
        dragTo_ = event->position().y();
        update();
        return;
    }
    const QString trial = trialAt(event->position());
    if (trial != hovered_) {
        hovered_ = trial;
        update();
    }
}

void ParallelCoordinatesView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        return;
    }
    dragAxis_ = axisNear(event->position());  // parallel_coordinates_brush.cpp
    if (dragAxis_ >= 0) {
        dragFrom_ = dragTo_ = event->position().y();
        return;  // a brush, or a click on the axis (released where it was pressed)
    }
    const QString trial = trialAt(event->position());
    if (!trial.isEmpty()) {
        emit trialClicked(trial);
    }
}

void ParallelCoordinatesView::leaveEvent(QEvent*) {
    if (!hovered_.isEmpty()) {
        hovered_.clear();
        update();
    }
}

}  // namespace tunedeck::app
