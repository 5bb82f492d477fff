#include "charts/node_usage_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace tunedeck::app {

namespace {

constexpr int kRedrawMs = 1000;
// The latest decisions listed under the table; the list shows about five rows, the rest scroll.
constexpr int kListedDecisions = 20;

QString percent(double value) {
    return QStringLiteral("%1 %").arg(value, 0, 'f', 0);
}

QString megabytes(long long used, long long total) {
    return QStringLiteral("%1 / %2 MB").arg(used).arg(total);
}

// "GPU 0: NVIDIA H200", and how the node shares it when the engine said: "(MPS)", or
// "(time slicing: MPS did not start)" with the reason in the tooltip.
QString cardLabel(const GpuCard& card, const GpuSharing* sharing) {
    QString label = QStringLiteral("GPU %1: %2").arg(card.index).arg(card.name);
    if (sharing && sharing->mode == QLatin1String("mps")) {
        label += NodeUsageView::tr(" (MPS)");
    } else if (sharing && !sharing->reason.isEmpty()) {
        label += NodeUsageView::tr(" (time slicing: MPS did not start)");
    }
    return label;
}

QString stateText(const QString& state) {
    if (state == QLatin1String("launching")) {
        return NodeUsageView::tr("launching");
    }
    if (state == QLatin1String("ready")) {
        return NodeUsageView::tr("ready");
    }
    if (state == QLatin1String("terminating")) {
        return NodeUsageView::tr("terminating");
    }
    if (state == QLatin1String("terminated")) {
        return NodeUsageView::tr("terminated");
    }
    if (state == QLatin1String("lost")) {
        return NodeUsageView::tr("lost");
    }
    if (state == QLatin1String("launch_failed")) {
        return NodeUsageView::tr("did not start");
    }
    return state;
}

// A decision in words: the engine's own for a launch or a termination, else the app's.
QString decisionText(const ScalingDecision& d) {
    if (!d.decision.isEmpty()) {
        return d.decision;
    }
    if (d.state == QLatin1String("ready")) {
        return NodeUsageView::tr("%1 (%2) ready %3 s after its launch")
            .arg(d.node, d.type)
            .arg(d.seconds, 0, 'f', 1);
    }
    if (d.state == QLatin1String("lost")) {
        return NodeUsageView::tr("%1 lost: %2").arg(d.node, d.reason);
    }
    if (d.state == QLatin1String("launch_failed")) {
        return d.node.isEmpty()
                   ? NodeUsageView::tr("cannot launch a %1: %2").arg(d.type, d.reason)
                   : NodeUsageView::tr("%1 (%2) did not start: %3").arg(d.node, d.type, d.reason);
    }
    return QStringLiteral("%1: %2").arg(d.node, stateText(d.state));
}

QLineSeries* seriesOf(const std::deque<UsagePoint>& points, const QString& name) {
    auto* series = new QLineSeries;
    series->setName(name);
    QList<QPointF> list;
    list.reserve(qsizetype(points.size()));
    for (const UsagePoint& p : points) {
        list.append({p.time * 1000.0, p.value});
    }
    series->replace(list);
    series->setPointsVisible(list.size() < 60);  // the first samples show before they join up
    return series;
}

}  // namespace

NodeUsageView::NodeUsageView(const NodeUsageModel* usage, QWidget* parent)
    : QWidget(parent), usage_(usage), throttle_(kRedrawMs, [this] { redraw(); }) {
    table_ = new QTableWidget;
    table_->setObjectName(QStringLiteral("usageTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    const auto makeChart = [](const QString& title) {
        auto* chart = new QChart;
        chart->setTitle(title);
        chart->legend()->setAlignment(Qt::AlignBottom);
        auto* view = new QChartView(chart);
        view->setRenderHint(QPainter::Antialiasing);
        return view;
    };
    utilization_ = makeChart(tr("Utilisation (%)"));
    memory_ = makeChart(tr("Memory used (%)"));
    // The table is as tall as its rows (a few nodes and cards); the charts get the rest, side by
    // side so each keeps the height its time axis needs.
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(utilization_);
    charts->addWidget(memory_);
    // Not a splitter: the table's height is fixed to its rows, and a splitter kept the height it
    // first gave the table's pane, leaving a blank band under a short table.
    auto* panes = new QWidget;
    auto* paneLayout = new QVBoxLayout(panes);
    paneLayout->setContentsMargins(0, 0, 0, 0);
    paneLayout->addWidget(table_);
    decisionsTitle_ = new QLabel(tr("The autoscaler's decisions, newest last"));
    decisions_ = new QListWidget;
    decisions_->setObjectName(QStringLiteral("scalingDecisions"));
    decisions_->setFixedHeight(decisions_->fontMetrics().lineSpacing() * 5 + 12);
    paneLayout->addWidget(decisionsTitle_);
    paneLayout->addWidget(decisions_);
    maxWorkersRow_ = new QWidget;
    auto* capLayout = new QHBoxLayout(maxWorkersRow_);
    capLayout->setContentsMargins(0, 0, 0, 0);
    maxWorkersType_ = new QComboBox;
    maxWorkersType_->setObjectName(QStringLiteral("maxWorkersType"));
    maxWorkers_ = new QSpinBox;
    maxWorkers_->setObjectName(QStringLiteral("maxWorkers"));
    maxWorkers_->setRange(0, 10000);
    auto* apply = new QPushButton(tr("Set max workers"));
    apply->setObjectName(QStringLiteral("setMaxWorkers"));
    apply->setToolTip(
        tr("From now on the autoscaler keeps at most this many nodes of the type; "
           "nodes above a lowered cap go when idle. The cluster file stays as it "
           "is."));
    connect(apply, &QPushButton::clicked, this, [this] {
        if (!maxWorkersType_->currentText().isEmpty()) {
            emit maxWorkersRequested(maxWorkersType_->currentText(), maxWorkers_->value());
        }
    });
    capLayout->addWidget(new QLabel(tr("Max workers of")));
    capLayout->addWidget(maxWorkersType_);
    capLayout->addWidget(maxWorkers_);
    capLayout->addWidget(apply);
    capLayout->addStretch(1);
    paneLayout->addWidget(maxWorkersRow_);
    paneLayout->addWidget(charts, 1);

    empty_ =
        new QLabel(tr("No node samples yet. The engine records them every gpu_sample_s "
                      "seconds while an experiment runs."));
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    stack_ = new QStackedWidget;
    stack_->addWidget(empty_);
    stack_->addWidget(panes);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
}

void NodeUsageView::refresh() {
    if (!isVisible()) {
        stale_ = true;
        return;
    }
    throttle_.request();
}

void NodeUsageView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) {
        stale_ = false;
        throttle_.request();
    }
}

void NodeUsageView::redraw() {
    stack_->setCurrentIndex(usage_->empty() && !usage_->autoscaled() ? 0 : 1);
    fillTable();
    fillDecisions();
    fillMaxWorkers();
    fillChart(utilization_, false);
    fillChart(memory_, true);
}

void NodeUsageView::fillTable() {
    const std::map<QString, NodeLifecycle>& lifecycles = usage_->lifecycles();
    // Type and State for an autoscaled cluster's nodes only: a listed node is simply there (its
    // loss is in the log), and its table stays as it was.
    const bool autoscaled = usage_->autoscaled();
    QStringList headers{tr("Node")};
    if (autoscaled) {
        headers << tr("Type") << tr("State");
    }
    const int first = int(headers.size());  // the usage columns start here
    headers << tr("Card") << tr("Utilisation") << tr("Memory") << tr("Temperature") << tr("Power")
            << tr("Trials on it");
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    std::map<QString, const NodeUsage*> ids;  // every node with samples, a state, or both
    for (const auto& [id, node] : usage_->nodes()) {
        ids[id] = &node;
    }
    for (const auto& [id, lifecycle] : lifecycles) {
        if (autoscaled) {
            ids.try_emplace(id, nullptr);  // launching: no sample yet
        }
    }
    const std::vector<const GpuCard*> cards = usage_->cards();
    table_->setRowCount(int(ids.size() + cards.size()));
    int row = 0;
    const auto cell = [this, &row](int column, const QString& text) {
        table_->setItem(row, column, new QTableWidgetItem(text));
    };
    const auto set = [&cell, first](int usageColumn, const QString& text) {
        cell(first + usageColumn, text);
    };
    for (const auto& [id, node] : ids) {
        const GpuSharing* sharing = usage_->gpuSharing(id);
        cell(0, id);
        const auto lifecycle = lifecycles.find(id);
        if (autoscaled && lifecycle != lifecycles.end()) {
            cell(1, lifecycle->second.type);
            cell(first - 1, stateText(lifecycle->second.state));
            QTableWidgetItem* state = table_->item(row, first - 1);
            state->setToolTip(lifecycle->second.reason);
            const QString& word = lifecycle->second.state;
            if (word == QLatin1String("lost") || word == QLatin1String("launch_failed")) {
                state->setForeground(QColor(200, 40, 40));
            }
        }
        if (node) {
            set(0, tr("CPU"));
            set(1, percent(node->cpuPercent));
            set(2, megabytes(node->memoryUsedMb, node->memoryTotalMb));
        }
        ++row;
        for (const GpuCard* card : cards) {
            if (card->node != id) {
                continue;
            }
            cell(0, id);
            set(0, cardLabel(*card, sharing));
            set(1, card->lost ? tr("lost") : percent(card->utilization));
            set(2, megabytes(card->memoryUsedMb, card->memoryTotalMb));
            set(3, QStringLiteral("%1 °C").arg(card->temperatureC, 0, 'f', 0));
            set(4, QStringLiteral("%1 W").arg(card->powerW, 0, 'f', 0));
            set(5, card->trials.join(QStringLiteral(", ")));
            table_->item(row, first)
                ->setToolTip(sharing && !sharing->reason.isEmpty()
                                 ? tr("%1\nMPS did not start: %2").arg(card->uuid, sharing->reason)
                                 : card->uuid);
            if (card->lost) {
                table_->item(row, first + 1)->setForeground(QColor(200, 40, 40));
            }
            ++row;
        }
    }
    table_->setRowCount(row);
    table_->resizeColumnsToContents();
    // As tall as its rows, up to a third of the view; the charts take the rest.
    int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth();
    for (int r = 0; r < row; ++r) {
        height += table_->rowHeight(r);
    }
    table_->setFixedHeight(std::min(height, std::max(120, this->height() / 3)));
}

void NodeUsageView::fillDecisions() {
    const std::deque<ScalingDecision>& all = usage_->decisions();
    const bool any = usage_->autoscaled() && !all.empty();
    decisionsTitle_->setVisible(any);
    decisions_->setVisible(any);
    const std::size_t from = all.size() > kListedDecisions ? all.size() - kListedDecisions : 0;
    QStringList lines;
    for (std::size_t i = from; i < all.size(); ++i) {
        lines << decisionText(all[i]);
    }
    QStringList listed;
    for (int r = 0; r < decisions_->count(); ++r) {
        listed << decisions_->item(r)->text();
    }
    if (listed != lines) {
        decisions_->clear();
        decisions_->addItems(lines);
        decisions_->scrollToBottom();  // the newest, as a log
    }
}

void NodeUsageView::fillMaxWorkers() {
    const QStringList types = usage_->nodeTypes();
    maxWorkersRow_->setVisible(usage_->autoscaled() && !types.isEmpty());
    QStringList listed;
    for (int i = 0; i < maxWorkersType_->count(); ++i) {
        listed << maxWorkersType_->itemText(i);
    }
    if (listed == types) {
        return;  // the user's choice and number stay while they type
    }
    const QString chosen = maxWorkersType_->currentText();
    maxWorkersType_->clear();
    maxWorkersType_->addItems(types);
    if (types.contains(chosen)) {
        maxWorkersType_->setCurrentText(chosen);
    }
    // A start for the number: the cap last set, else the nodes of the type seen so far.
    const QString type = maxWorkersType_->currentText();
    const auto set = usage_->maxWorkersSet().find(type);
    int seen = 0;
    for (const auto& [id, node] : usage_->lifecycles()) {
        seen += node.type == type ? 1 : 0;
    }
    maxWorkers_->setValue(set != usage_->maxWorkersSet().end() ? set->second : seen);
}

void NodeUsageView::fillChart(QChartView* view, bool memory) {
    QChart* chart = view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto* x = new QDateTimeAxis;
    x->setFormat(QStringLiteral("HH:mm:ss"));
    x->setTitleText(tr("time"));
    auto* y = new QValueAxis;
    y->setRange(0, 100);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const auto add = [&](QLineSeries* series) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    };
    for (const auto& [id, node] : usage_->nodes()) {
        add(seriesOf(memory ? node.memorySeries : node.cpuSeries, tr("%1 CPU").arg(id)));
    }
    for (const GpuCard* card : usage_->cards()) {
        add(seriesOf(memory ? card->memorySeries : card->utilizationSeries,
                     tr("%1 GPU %2").arg(card->node).arg(card->index)));
    }
    const double first = usage_->firstTime();
    const double last = std::max(usage_->lastTime(), first + 10.0);
    x->setRange(QDateTime::fromMSecsSinceEpoch(qint64(first * 1000.0)),
                QDateTime::fromMSecsSinceEpoch(qint64(last * 1000.0)));
}

}  // namespace tunedeck::app
