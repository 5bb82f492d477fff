#include "plots/trial_health_view.h"

#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <vector>

#include "charts/trial_colors.h"
#include "plots/study_plot.h"

namespace tunedeck::app {

namespace {

constexpr int kRefreshMs = 250;
constexpr int kCanvasHeight = 150;

// The most of `value` over the points of `trials`; 0 when none is known.
double highest(const TrialHealthModel& health, const QStringList& trials,
               double HealthPoint::*value) {
    double most = 0;
    for (const QString& id : trials) {
        if (const TrialHealth* trial = health.find(id)) {
            for (const HealthPoint& point : trial->points) {
                if (std::isfinite(point.*value)) {
                    most = std::max(most, point.*value);
                }
            }
        }
    }
    return most;
}

// The health line: one line, elided at the right (its whole text is the tooltip), so the panels
// under the curves keep their height; wrapped, it took three or four lines in German at 1280x800.
}  // namespace

// One line of text that is never cut inside an entry: `prefix` and as many whole entries
// (a trial's peaks) as the width holds, then how many more there are; every entry is in the
// tooltip. (Elided, "t00002: CPU up to 0% of a co…" read as a number cut off.)
class HealthLine : public QLabel {
  public:
    void setEntries(const QString& prefix, const QStringList& entries, const QString& more) {
        prefix_ = prefix;
        entries_ = entries;
        more_ = more;
        setText(prefix + entries.join(QStringLiteral("; ")));
        update();
    }
    // What the line shows at its width.
    QString shown() const {
        const QFontMetrics metrics = fontMetrics();
        const int width = contentsRect().width();
        if (entries_.isEmpty() || metrics.horizontalAdvance(text()) <= width) {
            return metrics.elidedText(text(), Qt::ElideRight, width);
        }
        for (qsizetype fit = entries_.size() - 1; fit >= 1; --fit) {
            const QString line = prefix_ + entries_.mid(0, fit).join(QStringLiteral("; ")) +
                                 more_.arg(entries_.size() - fit);
            if (metrics.horizontalAdvance(line) <= width) {
                return line;
            }
        }
        // Not even one entry: the first one, cut, rather than nothing.
        return metrics.elidedText(prefix_ + entries_.first(), Qt::ElideRight, width);
    }
    QSize sizeHint() const override {
        const QFontMetrics metrics(font());
        return {std::min(metrics.horizontalAdvance(text()), 400), metrics.height()};
    }
    QSize minimumSizeHint() const override { return {0, QFontMetrics(font()).height()}; }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        style()->drawItemText(&painter, contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, palette(),
                              isEnabled(), shown(), foregroundRole());
    }

  private:
    QString prefix_;
    QStringList entries_;
    QString more_;
};

TrialHealthView::TrialHealthView(const TrialHealthModel* health, const ExperimentData* data,
                                 QWidget* parent)
    : QWidget(parent),
      health_(health),
      data_(data),
      legend_(new HealthLine),
      canvas_(new PlotCanvas),
      throttle_(kRefreshMs, [this] { recompute(); }) {
    setObjectName(QStringLiteral("trialHealth"));
    legend_->setObjectName(QStringLiteral("trialHealthLegend"));
    legend_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    canvas_->setFixedHeight(kCanvasHeight);
    canvas_->setToolTip(
        tr("Each chosen trial's CPU use (100% is one busy core), resident memory (RAM) and GPU "
           "memory, as its node sampled them every gpu_sample_s seconds"));
    canvas_->paint = [this](QPainter& painter) { paintPanels(painter); };
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(legend_);
    layout->addWidget(canvas_);
    recompute();
}

void TrialHealthView::setTrials(const std::set<QString>& trialIds) {
    chosen_ = trialIds;
    chosen_.erase(QString());
    recomputeNow();
}

void TrialHealthView::refresh() {
    throttle_.request();
}

void TrialHealthView::recomputeNow() {
    recompute();
}

QString TrialHealthView::legend() const {
    return legend_->text();
}

QString TrialHealthView::shownLegend() const {
    return legend_->shown();
}

void TrialHealthView::recompute() {
    shown_.clear();
    if (!chosen_.empty()) {
        for (const QString& id : chosen_) {
            if (health_->find(id) != nullptr && shown_.size() < kMostTrials) {
                shown_ << id;
            }
        }
    } else {
        // No choice: the trials sampled last (the running ones, while the run goes on).
        std::vector<std::pair<double, QString>> latest;
        for (const auto& [id, trial] : health_->trials()) {
            if (!trial.points.empty()) {
                latest.emplace_back(trial.points.back().time, id);
            }
        }
        std::sort(latest.begin(), latest.end(), std::greater<>());
        for (std::size_t i = 0; i < latest.size() && i < std::size_t(kMostTrials); ++i) {
            shown_ << latest[i].second;
        }
        std::sort(shown_.begin(), shown_.end());
    }

    QStringList lines;
    bool anyGpu = false;
    double first = 0;
    double last = 0;
    for (const QString& id : shown_) {
        const TrialHealth& trial = *health_->find(id);
        anyGpu = anyGpu || trial.gpuKnown;
        const double start = trial.points.front().time;
        const double end = trial.points.back().time;
        first = lines.isEmpty() ? start : std::min(first, start);
        last = lines.isEmpty() ? end : std::max(last, end);
        // A CPU share is the time used between two samples: one sample measures none (the
        // agent's first reading of a trial says 0, which read as an idle trial).
        QString line = trial.samples < 2
                           ? tr("%1: CPU not measured (one sample), memory up to %2 MiB")
                                 .arg(id)
                                 .arg(trial.peakRssMb, 0, 'f', 0)
                           : tr("%1: CPU up to %2% of a core, memory up to %3 MiB")
                                 .arg(id)
                                 .arg(trial.peakCpuPercent, 0, 'f', 0)
                                 .arg(trial.peakRssMb, 0, 'f', 0);
        if (trial.gpuKnown) {
            line += tr(", GPU memory up to %1 MiB").arg(trial.peakGpuMemoryMb, 0, 'f', 0);
        }
        lines << line + (trial.ranks > 1
                             ? tr(" (%1 ranks added up, node %2, samples: %3)")
                                   .arg(trial.ranks)
                                   .arg(trial.node)
                                   .arg(trial.samples)
                             : tr(" (node %1, samples: %2)").arg(trial.node).arg(trial.samples));
    }
    if (shown_.isEmpty()) {
        legend_->setText(
            chosen_.empty()
                ? tr("System health: no trial has been sampled (each node is sampled every "
                     "gpu_sample_s seconds, so a shorter trial may have no sample; 0 turns "
                     "sampling off).")
                : tr("System health: no samples of the chosen trials."));
        legend_->setToolTip(legend_->text());
    } else {
        legend_->setEntries(tr("System health: "), lines, tr("; and %1 more (hover for all)"));
        legend_->setToolTip(tr("System health: ").trimmed() + QLatin1Char('\n') +
                            lines.join(QLatin1Char('\n')));
    }
    // No samples: no empty panels under the line, the curves get the room.
    canvas_->setVisible(!shown_.isEmpty());
    t0_ = first;
    x_ = PlotAxis::linear(0, std::max(1.0, last - first), tr("seconds"));
    x_.lo = 0;
    panels_.clear();
    panels_.push_back({tr("CPU %"), &HealthPoint::cpuPercent, {}});
    panels_.push_back({tr("RAM MiB"), &HealthPoint::rssMb, {}});
    if (anyGpu) {
        panels_.push_back({tr("GPU MiB"), &HealthPoint::gpuMemoryMb, {}});
    }
    for (Panel& panel : panels_) {
        panel.y =
            PlotAxis::linear(0, std::max(1.0, highest(*health_, shown_, panel.value)), panel.title);
        panel.y.lo = 0;
    }
    canvas_->update();
}

void TrialHealthView::paintPanels(QPainter& painter) {
    if (shown_.isEmpty()) {
        return;
    }
    const QRectF all(canvas_->rect());
    const double width = all.width() / double(panels_.size());
    painter.setRenderHint(QPainter::Antialiasing, true);
    // The curves' colours: the chosen trials (no choice: all of them) coloured as the chart
    // colours the same trials.
    std::vector<int> rows;
    if (chosen_.empty()) {
        for (int row = 0; row < int(data_->trials().size()); ++row) {
            rows.push_back(row);
        }
    }
    for (const QString& id : chosen_) {
        if (const int row = data_->rowOf(id); row >= 0) {
            rows.push_back(row);
        }
    }
    const TrialColors colors(std::move(rows));
    for (std::size_t p = 0; p < panels_.size(); ++p) {
        const Panel& panel = panels_[p];
        const QRectF area =
            plotAreaIn(QRectF(all.left() + width * double(p), all.top(), width, all.height()));
        drawAxes(painter, palette(), area, x_, panel.y);
        painter.save();
        painter.setClipRect(area);
        for (const QString& id : shown_) {
            const TrialHealth& trial = *health_->find(id);
            QPainterPath path;
            std::vector<QPointF> lone;  // a reading with none beside it: a dot, not a line
            int run = 0;                // readings in the line being drawn
            const auto endRun = [&](const QPointF& last) {
                if (run == 1) {
                    lone.push_back(last);
                }
                run = 0;
            };
            QPointF last;
            for (const HealthPoint& point : trial.points) {
                const double value = point.*panel.value;
                if (!std::isfinite(value)) {
                    endRun(last);  // a gap: no reading at this sample
                    continue;
                }
                const QPointF at(pixelX(area, x_, point.time - t0_), pixelY(area, panel.y, value));
                if (run > 0) {
                    path.lineTo(at);
                } else {
                    path.moveTo(at);
                }
                ++run;
                last = at;
            }
            endRun(last);
            const int row = data_->rowOf(id);
            const QColor color = colors.of(row, row == data_->bestRow());
            painter.setPen(QPen(color, 1.5));
            painter.drawPath(path);
            painter.setBrush(color);
            for (const QPointF& at : lone) {
                painter.drawEllipse(at, 2.5, 2.5);
            }
            painter.setBrush(Qt::NoBrush);
        }
        painter.restore();
    }
}

}  // namespace tunedeck::app
