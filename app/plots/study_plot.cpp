#include "plots/study_plot.h"

#include <QHBoxLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "models/config_text.h"

namespace tunedeck::app {

namespace {

constexpr int kRedrawMs = 250;  // at most four recomputations a second, as the other analyses

}  // namespace

void PlotCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (paint) {
        paint(painter);
    }
}

void PlotCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QString trial = trialAt ? trialAt(event->position()) : QString();
    if (trial.isEmpty() || !toolTipOf) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), toolTipOf(trial), this);
}

void PlotCanvas::mousePressEvent(QMouseEvent* event) {
    const QString trial = trialAt ? trialAt(event->position()) : QString();
    if (!trial.isEmpty() && clicked) {
        clicked(trial);
    }
}

StudyPlot::StudyPlot(const ExperimentData* data, QWidget* parent)
    : QWidget(parent), data_(data), throttle_(kRedrawMs, [this] { recomputeNow(); }) {
    controls_ = new QHBoxLayout;
    controls_->setContentsMargins(6, 4, 6, 0);
    canvas_ = new PlotCanvas;
    canvas_->setMouseTracking(true);
    canvas_->setMinimumSize(240, 160);
    canvas_->paint = [this](QPainter& painter) { paintPlot(painter); };
    canvas_->trialAt = [this](QPointF pos) { return trialAt(pos); };
    canvas_->toolTipOf = [this](const QString& trial) { return toolTipOf(trial); };
    canvas_->clicked = [this](const QString& trial) { emit trialClicked(trial); };
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls_);
    layout->addWidget(canvas_, 1);
}

void StudyPlot::refresh() {
    stale_ = true;
    if (isVisible()) {
        throttle_.request();
    }
}

void StudyPlot::recomputeNow() {
    stale_ = false;
    recompute();
    canvas_->update();
}

void StudyPlot::setSelectedTrials(const QStringList& ids) {
    selected_ = std::set<QString>(ids.begin(), ids.end());
    canvas_->update();
}

void StudyPlot::showEvent(QShowEvent*) {
    if (stale_) {
        throttle_.request();
    }
}

QString StudyPlot::toolTipOf(const QString& trialId) const {
    const int row = data_->rowOf(trialId);
    if (row < 0) {
        return {};
    }
    const TrialRow& t = data_->trials()[std::size_t(row)];
    QStringList lines{t.id,
                      tr("%1: %2").arg(valueTitle(), QString::number(data_->score(row), 'g', 6))};
    for (const QString& key : data_->configKeys()) {
        lines << QStringLiteral("%1 = %2").arg(key, configValueText(t, key));
    }
    return lines.join('\n');
}

QString StudyPlot::valueTitle() const {
    return tr("%1, %2").arg(data_->metric(), scoreScopeText(data_->scope()));
}

void StudyPlot::paintEmpty(QPainter& painter) const {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(canvas_->rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                     note_);
}

QColor sequentialColour(double fraction) {
    // Viridis at five stops, linearly between them.
    static const QColor stops[] = {QColor(68, 1, 84), QColor(59, 82, 139), QColor(33, 145, 140),
                                   QColor(94, 201, 98), QColor(253, 231, 37)};
    const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(f));
    const double t = f - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor(int(a.red() + (b.red() - a.red()) * t),
                  int(a.green() + (b.green() - a.green()) * t),
                  int(a.blue() + (b.blue() - a.blue()) * t));
}

}  // namespace tunedeck::app
