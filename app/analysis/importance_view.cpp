#include "analysis/importance_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "models/pareto_front.h"

namespace tunedeck::app {

namespace {

constexpr int kRefitMs = 1000;       // a new fit at most once a second: a forest is not free
constexpr int kSliceMs = 8;          // trees grown per event-loop turn stop after this
constexpr std::uint64_t kSeed = 20;  // fixed: the same trials always give the same bars

}  // namespace

ImportanceView::ImportanceView(const ExperimentData* data, QWidget* parent)
    : QWidget(parent), data_(data), throttle_(kRefitMs, [this] { startFit(); }) {
    message_ = new QLabel;
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    message_->setMargin(24);

    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->hide();
    series_ = new QHorizontalBarSeries;
    bars_ = new QBarSet(tr("Importance"));
    bars_->setColor(QColor(31, 119, 180));
    bars_->setBorderColor(QColor(31, 119, 180));
    bars_->setLabelColor(palette().color(QPalette::WindowText));
    series_->append(bars_);
    series_->setBarWidth(0.7);
    series_->setLabelsVisible(true);
    series_->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series_->setLabelsFormat(QStringLiteral("@value"));
    series_->setLabelsPrecision(2);
    chart->addSeries(series_);
    names_ = new QBarCategoryAxis;
    values_ = new QValueAxis;
    values_->setRange(0, 1);
    values_->setLabelFormat(QStringLiteral("%.2g"));
    values_->setTitleText(tr("importance (share of impurity decrease)"));
    chart->addAxis(names_, Qt::AlignLeft);
    chart->addAxis(values_, Qt::AlignBottom);
    series_->attachAxis(names_);
    series_->attachAxis(values_);
    view_ = new QChartView(chart);
    view_->setRenderHint(QPainter::Antialiasing, true);
    note_ = new QLabel;
    note_->setWordWrap(true);
    note_->setContentsMargins(8, 2, 8, 4);

    auto* chartPage = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPage);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(view_, 1);
    chartLayout->addWidget(note_);
    pages_ = new QStackedWidget;
    pages_->addWidget(message_);
    pages_->addWidget(chartPage);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(pages_);

    grow_.setInterval(0);
    connect(&grow_, &QTimer::timeout, this, &ImportanceView::growSome);
    showMessage(tr("Parameter importance needs at least %1 finished trials with the metric.")
                    .arg(kMinTrials));
}

void ImportanceView::refresh() {
    stale_ = true;
    if (isVisible()) {
        throttle_.request();
    }
}

void ImportanceView::showEvent(QShowEvent*) {
    if (stale_) {
        throttle_.request();
    }
}

QString ImportanceView::message() const {
    return pages_->currentWidget() == message_ ? message_->text() : QString();
}

void ImportanceView::startFit() {
    stale_ = false;
    ImportanceInput input = ImportanceInput::of(*data_);
    std::vector<double> fingerprint;
    fingerprint.reserve(2 * input.rows.size() + 2);
    fingerprint.push_back(double(data_->configKeys().size()));
    fingerprint.push_back(double(data_->exploits().size()));
    for (std::size_t i = 0; i < input.rows.size(); ++i) {
        fingerprint.push_back(input.rows[i]);
        fingerprint.push_back(input.targets[i]);
    }
    if (fingerprint == fitted_ && (forest_ != nullptr || !shown_.empty())) {
        return;  // the same finished trials: the same forest
    }
    fitted_ = std::move(fingerprint);
    grow_.stop();
    forest_.reset();
    const QString metric = data_->metric();
    if (int(input.rows.size()) < kMinTrials) {
        shown_.clear();
        showMessage(tr("Parameter importance needs at least %1 finished trials with “%2”; "
                       "%3 so far.")
                        .arg(kMinTrials)
                        .arg(metric)
                        .arg(input.rows.size()));
        return;
    }
    if (input.parameters.isEmpty()) {
        shown_.clear();
        showMessage(tr("No hyperparameter varies between the finished trials."));
        return;
    }
    const auto [lo, hi] = std::minmax_element(input.targets.begin(), input.targets.end());
    if (*lo == *hi) {
        shown_.clear();
        showMessage(data_->isMultiObjective()
                        ? (*lo > 0 ? tr("Every finished trial is on the Pareto front of %1: no "
                                        "parameter makes a difference to explain.")
                                   : tr("No finished trial is on the Pareto front of %1: no "
                                        "parameter makes a difference to explain."))
                              .arg(objectivesText(data_->objectives()))
                        : tr("Every finished trial has the same “%1”, %2: no parameter makes a "
                             "difference to explain.")
                              .arg(metric, scoreScopeText(data_->scope())));
        return;
    }
    ForestOptions options;
    options.seed = kSeed;
    input_ = std::move(input);
    forest_ = std::make_unique<RandomForest>(input_.samples, input_.targets, options);
    if (shown_.empty()) {
        showMessage(tr("Computing parameter importance…"));
    } else {
        note_->setText(note_->text() + QStringLiteral(" ") + tr("Updating…"));
    }
    growSome();
    if (forest_ != nullptr) {
        grow_.start();
    }
}

void ImportanceView::growSome() {
    if (forest_ == nullptr) {
        grow_.stop();
        return;
    }
    QElapsedTimer slice;
    slice.start();
    while (forest_->growTree()) {
        if (slice.elapsed() >= kSliceMs) {
            return;
        }
    }
    grow_.stop();
    std::vector<ParameterImportance> importances = input_.importances(*forest_);
    const int trials = int(input_.rows.size());
    forest_.reset();
    showImportances(std::move(importances), trials);
}

void ImportanceView::showImportances(std::vector<ParameterImportance> importances, int trials) {
    shown_ = std::move(importances);
    fittedTrials_ = trials;
    // The category axis draws its first entry at the bottom: the largest goes last.
    QStringList names;
    QList<qreal> values;
    double largest = 0;
    for (auto it = shown_.rbegin(); it != shown_.rend(); ++it) {
        names.append(it->parameter);
        values.append(it->importance);
        largest = std::max(largest, it->importance);
    }
    bars_->remove(0, bars_->count());
    names_->clear();
    names_->append(names);
    bars_->append(values);
    // Room for the value labels right of the longest bar.
    values_->setRange(0, std::min(1.0, std::ceil(largest * 1.15 * 10) / 10));
    values_->applyNiceNumbers();
    if (data_->isMultiObjective()) {
        // The front decides what is best with several objectives (ExperimentData::isBest).
        view_->chart()->setTitle(tr("Hyperparameter importance for the Pareto front"));
        note_->setText(
            tr("Mean decrease in impurity of a random forest (%1 trees) fitted to "
               "whether each of %2 finished trials is on the Pareto front of %3, "
               "by %4.")
                .arg(ForestOptions{}.trees)
                .arg(trials)
                .arg(objectivesText(data_->objectives()), scoreScopeText(data_->scope())));
    } else {
        view_->chart()->setTitle(tr("Hyperparameter importance for “%1”").arg(data_->metric()));
        note_->setText(tr("Mean decrease in impurity of a random forest (%1 trees) fitted to "
                          "“%2”, %3, of %4 finished trials.")
                           .arg(ForestOptions{}.trees)
                           .arg(data_->metric(), scoreScopeText(data_->scope()))
                           .arg(trials));
    }
    pages_->setCurrentIndex(1);
    emit importancesChanged();
}

void ImportanceView::showMessage(const QString& text) {
    message_->setText(text);
    pages_->setCurrentWidget(message_);
    emit importancesChanged();
}

}  // namespace tunedeck::app
