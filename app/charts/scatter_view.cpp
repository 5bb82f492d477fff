#include "charts/scatter_view.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "models/config_text.h"

namespace tunedeck::app {

namespace {

constexpr int kRedrawMs = 250;        // at most four redraws a second
constexpr double kJitter = 0.18;      // of a category's width, so equal values do not hide
constexpr double kPadding = 0.05;     // of the range, around the points
constexpr int kAntialiasBelow = 400;  // points; above, crisp markers paint several times faster

// A fixed offset per trial: the same point does not move between redraws.
double jitterOf(const QString& trialId) {
    const std::size_t h = qHash(trialId, 0x5eed);
    return (double(h % 1000) / 999.0 * 2.0 - 1.0) * kJitter;
}

std::pair<double, double> padded(double min, double max, bool log) {
    if (log) {
        const double factor = std::pow(max / min, kPadding);
        return {min / std::max(factor, 1.2), max * std::max(factor, 1.2)};
    }
    const double pad = max > min ? (max - min) * kPadding : std::max(std::abs(max) * 0.1, 0.5);
    return {min - pad, max + pad};
}

}  // namespace

ScatterView::ScatterView(const ExperimentData* data, QWidget* parent)
    : QWidget(parent), data_(data), throttle_(kRedrawMs, [this] { redraw(); }) {
    parameters_ = new QComboBox;
    parameters_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    log_ = new QCheckBox(tr("Log x"));
    note_ = new QLabel;
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(6, 4, 6, 0);
    auto* label = new QLabel(tr("&Parameter:"));
    label->setBuddy(parameters_);
    controls->addWidget(label);
    controls->addWidget(parameters_);
    controls->addWidget(log_);
    controls->addStretch(1);
    controls->addWidget(note_);

    chart_ = new QChart;
    chart_->setMargins(QMargins(4, 4, 4, 4));
    chart_->legend()->setAlignment(Qt::AlignTop);
    all_ = new QScatterSeries;
    all_->setName(tr("Trials"));
    all_->setMarkerSize(9);
    all_->setColor(QColor(31, 119, 180, 170));
    all_->setBorderColor(QColor(31, 119, 180));
    chosen_ = new QScatterSeries;
    chosen_->setName(tr("Selected"));
    chosen_->setMarkerSize(15);
    chosen_->setColor(QColor(255, 127, 14, 50));
    chosen_->setBorderColor(QColor(255, 127, 14));
    chosen_->setPen(QPen(QColor(255, 127, 14), 2.5));
    best_ = new QScatterSeries;
    best_->setName(tr("Best"));
    best_->setMarkerShape(QScatterSeries::MarkerShapeStar);
    best_->setMarkerSize(22);
    best_->setColor(QColor(214, 39, 40));
    best_->setBorderColor(QColor(120, 10, 10));
    for (QScatterSeries* series : {all_, chosen_, best_}) {
        chart_->addSeries(series);
        connect(series, &QScatterSeries::hovered, this, [this](const QPointF& point, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            const QString trial = trialNear(point);
            const int row = data_->rowOf(trial);
            if (row < 0) {
                return;
            }
            const TrialRow& t = data_->trials()[std::size_t(row)];
            QToolTip::showText(QCursor::pos(),
                               tr("%1\n%2 = %3\n%4, %5 = %6")
                                   .arg(t.id, parameter(), configValueText(t, parameter()),
                                        data_->metric(), scoreScopeText(data_->scope()),
                                        QString::number(data_->score(row), 'g', 6)),
                               view_);
        });
        connect(series, &QScatterSeries::clicked, this, [this](const QPointF& point) {
            const QString trial = trialNear(point);
            if (!trial.isEmpty()) {
                emit trialClicked(trial);
            }
        });
    }
    yAxis_ = new QValueAxis;
    chart_->addAxis(yAxis_, Qt::AlignLeft);
    for (QScatterSeries* series : {all_, chosen_, best_}) {
        series->attachAxis(yAxis_);
    }
    setXAxis(new QValueAxis);
    xKind_ = XKind::Linear;

    view_ = new QChartView(chart_);
    view_->setRenderHint(QPainter::Antialiasing, true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);

    connect(parameters_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    connect(log_, &QCheckBox::toggled, this, [this] { redraw(); });
}

void ScatterView::refresh() {
    stale_ = true;
    if (isVisible()) {
        throttle_.request();
    }
}

void ScatterView::showEvent(QShowEvent*) {
    if (stale_) {
        throttle_.request();
    }
}

void ScatterView::setSelectedTrials(const QStringList& ids) {
    selected_ = std::set<QString>(ids.begin(), ids.end());
    redraw();
}

QString ScatterView::parameter() const {
    return parameters_->currentText();
}

void ScatterView::setParameter(const QString& key) {
    updateParameters();
    parameters_->setCurrentIndex(parameters_->findText(key));
}

bool ScatterView::logX() const {
    return log_->isEnabled() && log_->isChecked();
}

void ScatterView::setLogX(bool on) {
    log_->setChecked(on);
}

QList<QPointF> ScatterView::points() const {
    return all_->points();
}

QList<QPointF> ScatterView::bestPoints() const {
    return best_->points();
}

QList<QPointF> ScatterView::selectedPoints() const {
    return chosen_->points();
}

void ScatterView::updateParameters() {
    if (keys_ == data_->configKeys()) {
        return;
    }
    keys_ = data_->configKeys();
    QString current = parameters_->currentText();
    if (current.isEmpty()) {
        // First the first parameter that varies: a constant is a vertical line of points.
        for (const ParameterScale& scale : parameterScales(*data_)) {
            if (scale.varies()) {
                current = scale.key;
                break;
            }
        }
    }
    const QSignalBlocker block(parameters_);
    parameters_->clear();
    parameters_->addItems(keys_);
    parameters_->setCurrentIndex(std::max(0, int(keys_.indexOf(current))));
}

void ScatterView::setXAxis(QAbstractAxis* axis) {
    if (xAxis_ != nullptr) {
        chart_->removeAxis(xAxis_);
        delete xAxis_;
    }
    xAxis_ = axis;
    chart_->addAxis(xAxis_, Qt::AlignBottom);
    for (QScatterSeries* series : {all_, chosen_, best_}) {
        series->attachAxis(xAxis_);
    }
}

void ScatterView::redraw() {
    stale_ = false;
    updateParameters();
    const QString key = parameter();
    const std::vector<TrialRow>& trials = data_->trials();
    std::vector<QJsonValue> values;
    values.reserve(trials.size());
    for (const TrialRow& row : trials) {
        values.push_back(row.flatConfig.value(key));
    }
    const ParameterScale scale = ParameterScale::of(key, values, data_->choices().value(key));
    const bool categorical = scale.kind == ParameterScale::Kind::Categorical;
    const bool canLog = !categorical && scale.min > 0;
    if (key != logFor_) {
        // A parameter sampled on a log scale is shown on one until the user says otherwise.
        logFor_ = key;
        const QSignalBlocker block(log_);
        log_->setChecked(scale.kind == ParameterScale::Kind::Log);
    }
    log_->setEnabled(canLog);
    const bool log = canLog && log_->isChecked();

    QList<QPointF> points;
    QList<QPointF> chosen;
    QList<QPointF> best;
    pointTrials_.clear();
    const int bestRow = data_->bestRow();
    const bool multiObjective = data_->isMultiObjective();
    double yMin = 0, yMax = 0;
    for (std::size_t r = 0; r < trials.size(); ++r) {
        const TrialRow& row = trials[r];
        const double score = data_->score(int(r));  // by the window's scope, as the bold row
        if (std::isnan(score)) {
            continue;
        }
        double x = kNoValue;
        if (categorical) {
            const int index = scale.categoryOf(values[r]);
            x = index < 0 ? kNoValue : index + jitterOf(row.id);
        } else if (values[r].isDouble() && (!log || values[r].toDouble() > 0)) {
            x = values[r].toDouble();
        }
        if (std::isnan(x)) {
            continue;  // a conditional parameter this trial did not have
        }
        const QPointF point(x, score);
        yMin = points.isEmpty() ? score : std::min(yMin, score);
        yMax = points.isEmpty() ? score : std::max(yMax, score);
        points.append(point);
        pointTrials_.append(row.id);
        if (selected_.count(row.id) != 0) {
            chosen.append(point);
        }
        // With several objectives there is no one best: the stars are the Pareto front.
        if (data_->isBest(int(r))) {
            best.append(point);
        }
    }
    const XKind kind = categorical ? XKind::Categories : log ? XKind::Log : XKind::Linear;
    if (kind != xKind_ || (categorical && scale.categories != xCategories_)) {
        // No old point may meet the new axis: a category's jittered -0.1 on a log axis.
        all_->clear();
        chosen_->clear();
        best_->clear();
        if (categorical) {
            auto* categories = new QCategoryAxis;
            categories->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
            categories->setStartValue(-0.5);
            for (int c = 0; c < int(scale.categories.size()); ++c) {
                categories->append(scale.categories[c], c);
            }
            setXAxis(categories);
        } else if (log) {
            auto* logAxis = new QLogValueAxis;
            logAxis->setLabelFormat(QStringLiteral("%g"));
            logAxis->setMinorTickCount(-1);
            setXAxis(logAxis);
        } else {
            setXAxis(new QValueAxis);
        }
        xKind_ = kind;
        xCategories_ = scale.categories;
    }
    if (categorical) {
        xAxis_->setRange(-0.5, double(scale.categories.size()) - 0.5);
    } else if (log) {
        const auto [lo, hi] = padded(scale.min, scale.max, true);
        xAxis_->setRange(lo, hi);
    } else {
        auto* linear = static_cast<QValueAxis*>(xAxis_);
        const auto [lo, hi] = padded(scale.min, scale.max, false);
        linear->setRange(lo, hi);
        linear->applyNiceNumbers();
    }
    xAxis_->setTitleText(key);
    // Unchanged points are left alone: QtCharts moves and repaints every marker on a replace().
    if (all_->points() != points) {
        all_->replace(points);
    }
    if (chosen_->points() != chosen) {
        chosen_->replace(chosen);
    }
    if (best_->points() != best) {
        best_->replace(best);
    }
    // Antialiased markers cost QtCharts most of a frame at a thousand points; crisp ones less.
    view_->setRenderHint(QPainter::Antialiasing, points.size() < kAntialiasBelow);
    const QString scope = scoreScopeText(data_->scope());
    best_->setName(multiObjective ? tr("On the Pareto front by %1").arg(scope)
                   : bestRow >= 0 && !best.isEmpty()
                       ? tr("Best by %1 (%2)").arg(scope, trials[std::size_t(bestRow)].id)
                       : tr("Best by %1").arg(scope));
    auto* y = static_cast<QValueAxis*>(yAxis_);
    const auto [lo, hi] = padded(yMin, yMax, false);
    y->setRange(lo, hi);
    y->applyNiceNumbers();
    y->setTitleText(tr("%1, %2").arg(data_->metric(), scope));
    note_->setText(points.isEmpty()
                       ? tr("No trial has reported “%1” yet.").arg(data_->metric())
                       : tr("Trials with “%1”: %2").arg(data_->metric()).arg(points.size()));
}

QString ScatterView::trialNear(QPointF value) const {
    const QList<QPointF> drawn = all_->points();
    QString nearest;
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < int(drawn.size()); ++i) {
        const double d = std::abs(drawn[i].x() - value.x()) + std::abs(drawn[i].y() - value.y());
        if (d < best) {
            best = d;
            nearest = pointTrials_[i];
        }
    }
    return nearest;
}

}  // namespace tunedeck::app
