#include "plots/slice_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "charts/parameter_scale.h"
#include "plots/study_series.h"

namespace tunedeck::app {

namespace {

constexpr double kJitter = 0.18;  // of a category's width, so equal values do not hide
constexpr double kMarker = 6;     // point diameter
constexpr double kPickRadius = 6;
constexpr int kMaxColumns = 3;
constexpr int kLegendHeight = 22;

double jitterOf(const QString& trialId) {
    const std::size_t h = qHash(trialId, 0x5eed);
    return (double(h % 1000) / 999.0 * 2.0 - 1.0) * kJitter;
}

}  // namespace

SliceView::SliceView(const ExperimentData* data, QWidget* parent) : StudyPlot(data, parent) {
    parameters_ = new QComboBox;
    parameters_->setObjectName(QStringLiteral("sliceParameter"));
    parameters_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* label = new QLabel(tr("&Parameter:"));
    label->setBuddy(parameters_);
    controls()->addWidget(label);
    controls()->addWidget(parameters_);
    controls()->addStretch(1);
    connect(parameters_, &QComboBox::currentIndexChanged, this, [this] { recomputeNow(); });
}

void SliceView::setParameter(const QString& key) {
    recomputeNow();
    parameters_->setCurrentIndex(key.isEmpty() ? 0 : std::max(0, int(parameters_->findData(key))));
}

void SliceView::recompute() {
    if (keys_ != data_->configKeys()) {
        keys_ = data_->configKeys();
        const QString current = parameters_->currentData().toString();
        const QSignalBlocker block(parameters_);
        parameters_->clear();
        parameters_->addItem(tr("All that vary"), QString());
        for (const QString& key : keys_) {
            parameters_->addItem(key, key);
        }
        parameters_->setCurrentIndex(std::max(0, int(parameters_->findData(current))));
    }
    const QString picked = parameters_->currentData().toString();
    const std::vector<TrialValue> values = trialValues(*data_);
    trialCount_ = int(data_->trials().size());
    panels_.clear();
    double yMin = 0, yMax = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        yMin = i == 0 ? values[i].value : std::min(yMin, values[i].value);
        yMax = i == 0 ? values[i].value : std::max(yMax, values[i].value);
    }
    const PlotAxis y = PlotAxis::linear(yMin, yMax, valueTitle());
    for (const ParameterScale& scale : parameterScales(*data_)) {
        if (picked.isEmpty() ? !scale.varies() : scale.key != picked) {
            continue;
        }
        Panel panel;
        panel.key = scale.key;
        panel.y = y;
        const bool categorical = scale.kind == ParameterScale::Kind::Categorical;
        panel.x = categorical ? PlotAxis::categorical(scale.categories, scale.key)
                  : scale.kind == ParameterScale::Kind::Log
                      ? PlotAxis::log(scale.min, scale.max, scale.key)
                      : PlotAxis::linear(scale.min, scale.max, scale.key);
        for (const TrialValue& v : values) {
            const TrialRow& row = data_->trials()[std::size_t(v.row)];
            const QJsonValue value = row.flatConfig.value(scale.key);
            double x = kNoValue;
            if (categorical) {
                const int index = scale.categoryOf(value);
                x = index < 0 ? kNoValue : index + jitterOf(row.id);
            } else if (value.isDouble()) {
                x = value.toDouble();
            }
            if (std::isnan(panel.x.fraction(x))) {
                continue;  // a conditional parameter this trial did not have
            }
            panel.points.emplace_back(x, v.value);
            panel.rows.push_back(v.row);
        }
        panels_.push_back(std::move(panel));
    }
    if (values.empty()) {
        setNote(data_->metric().isEmpty()
                    ? tr("No experiment shown.")
                    : tr("No trial has reported “%1” yet.").arg(data_->metric()));
    } else if (panels_.empty()) {
        setNote(tr("No parameter varies between the trials."));
    } else {
        setNote(tr("%n trial(s) with a value", nullptr, int(values.size())));
    }
}

QRectF SliceView::panelRect(int index) const {
    const int n = int(panels_.size());
    const QRectF all = QRectF(canvas()->rect()).adjusted(0, kLegendHeight, 0, 0);
    const int columns = std::clamp(int(all.width() / 320), 1, std::min(kMaxColumns, n));
    const int rows = (n + columns - 1) / columns;
    const double w = all.width() / columns;
    const double h = all.height() / rows;
    return QRectF(all.left() + (index % columns) * w, all.top() + (index / columns) * h, w, h);
}

void SliceView::paintPlot(QPainter& painter) {
    if (panels_.empty()) {
        paintEmpty(painter);
        return;
    }
    const double last = std::max(1, trialCount_ - 1);
    for (int p = 0; p < int(panels_.size()); ++p) {
        const Panel& panel = panels_[std::size_t(p)];
        const QRectF area = plotAreaIn(panelRect(p).adjusted(0, 0, -8, -4));
        drawAxes(painter, palette(), area, panel.x, panel.y);
        painter.save();
        painter.setClipRect(area);
        painter.setRenderHint(QPainter::Antialiasing, panel.points.size() < 2000);
        for (std::size_t i = 0; i < panel.points.size(); ++i) {
            const QPointF at(pixelX(area, panel.x, panel.points[i].x()),
                             pixelY(area, panel.y, panel.points[i].y()));
            const QColor colour = sequentialColour(panel.rows[i] / last);
            painter.setPen(QPen(colour.darker(140), 1));
            painter.setBrush(colour);
            painter.drawEllipse(at, kMarker / 2, kMarker / 2);
            if (selected_.count(data_->trials()[std::size_t(panel.rows[i])].id) != 0) {
                painter.setBrush(Qt::NoBrush);
                painter.setPen(QPen(QColor(255, 127, 14), 2.5));
                painter.drawEllipse(at, 7, 7);
            }
        }
        painter.restore();
    }
    // The colour scale: trial number, first to last.
    const QFontMetricsF metrics(painter.font());
    painter.setPen(palette().color(QPalette::Text));
    const QString first = tr("colour: trial number, first");
    const QString latest = tr("last");
    double x = 70;
    const double y = 4;
    painter.drawText(QRectF(x, y, metrics.horizontalAdvance(first) + 2, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, first);
    x += metrics.horizontalAdvance(first) + 6;
    QLinearGradient gradient(QPointF(x, 0), QPointF(x + 120, 0));
    for (int i = 0; i <= 4; ++i) {
        gradient.setColorAt(i / 4.0, sequentialColour(i / 4.0));
    }
    painter.fillRect(QRectF(x, y + 3, 120, metrics.height() - 6), gradient);
    x += 126;
    painter.drawText(QPointF(x, y + metrics.ascent()), latest);
    painter.drawText(QRectF(0, y, canvas()->width() - 12, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, note());
}

QString SliceView::trialAt(QPointF pos) const {
    for (int p = 0; p < int(panels_.size()); ++p) {
        const Panel& panel = panels_[std::size_t(p)];
        const QRectF area = plotAreaIn(panelRect(p).adjusted(0, 0, -8, -4));
        if (!area.contains(pos)) {
            continue;
        }
        double nearest = kPickRadius * kPickRadius;
        int found = -1;
        for (std::size_t i = 0; i < panel.points.size(); ++i) {
            const QPointF d = QPointF(pixelX(area, panel.x, panel.points[i].x()),
                                      pixelY(area, panel.y, panel.points[i].y())) -
                              pos;
            const double d2 = d.x() * d.x() + d.y() * d.y();
            if (d2 <= nearest) {
                nearest = d2;
                found = panel.rows[i];
            }
        }
        return found < 0 ? QString() : data_->trials()[std::size_t(found)].id;
    }
    return {};
}

}  // namespace tunedeck::app
