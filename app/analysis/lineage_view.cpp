#include "analysis/lineage_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "models/config_text.h"

namespace tunedeck::app {

namespace {

constexpr int kRefreshMs = 500;  // lineage changes at PBT's pace, not the results'
constexpr int kChainShown = 8;   // trials named in a row's chain before it is elided
constexpr int kTrialRole = Qt::UserRole;
constexpr int kTopLevelRole = Qt::UserRole + 1;

}  // namespace

LineageView::LineageView(const ExperimentData* data, QWidget* parent)
    : QWidget(parent), data_(data), throttle_(kRefreshMs, [this] { refreshNow(); }) {
    message_ = new QLabel(tr("No PBT exploits in this experiment."));
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    tree_ = new QTreeWidget;
    tree_->setColumnCount(5);
    tree_->setHeaderLabels(
        {tr("Trial"), tr("Iteration"), tr("Copied from"), tr("Hyperparameters changed"), {}});
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    tree_->header()->setSectionResizeMode(ChangesColumn, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    pages_ = new QStackedWidget;
    pages_->addWidget(message_);
    pages_->addWidget(tree_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(pages_);
    connect(tree_, &QTreeWidget::itemExpanded, this, &LineageView::fillSteps);
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        emit trialClicked(item->data(TrialColumn, kTrialRole).toString());
    });
}

void LineageView::refresh() {
    stale_ = true;
    if (isVisible()) {
        throttle_.request();
    }
}

void LineageView::showEvent(QShowEvent*) {
    if (stale_) {
        throttle_.request();
    }
}

bool LineageView::hasLineage() const {
    return pages_->currentWidget() == tree_;
}

QString LineageView::message() const {
    return hasLineage() ? QString() : message_->text();
}

QStringList LineageView::chainOf(const QString& trialId) const {
    return lineage_ == nullptr ? QStringList{trialId} : lineage_->chainOf(trialId);
}

QTreeWidgetItem* LineageView::itemOf(const QString& trialId) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = tree_->topLevelItem(i);
        if (item->data(TrialColumn, kTrialRole).toString() == trialId) {
            return item;
        }
    }
    return nullptr;
}

std::pair<std::size_t, qint64> LineageView::seenNow() const {
    const std::vector<Exploit>& exploits = data_->exploits();
    return {exploits.size(), exploits.empty() ? 0 : exploits.back().seq};
}

void LineageView::refreshNow() {
    stale_ = false;
    if (seenNow() != exploitsSeen_ || lineage_ == nullptr) {
        rebuild();
    } else {
        updateTopLevel();
    }
}

void LineageView::rebuild() {
    exploitsSeen_ = seenNow();
    if (exploitsSeen_.first == 0) {
        lineage_.reset();
        tree_->clear();
        pages_->setCurrentWidget(message_);
        return;
    }
    std::set<QString> expanded;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        if (tree_->topLevelItem(i)->isExpanded()) {
            expanded.insert(tree_->topLevelItem(i)->data(TrialColumn, kTrialRole).toString());
        }
    }
    const bool first = tree_->topLevelItemCount() == 0;
    lineage_ = std::make_unique<Lineage>(data_->exploits());
    tree_->setUpdatesEnabled(false);
    tree_->clear();
    QList<QTreeWidgetItem*> items;
    for (const QString& trial : lineage_->exploitedTrials()) {
        auto* item = new QTreeWidgetItem;
        item->setData(TrialColumn, kTrialRole, trial);
        item->setData(TrialColumn, kTopLevelRole, true);
        item->setText(TrialColumn, trial);
        QFont bold = item->font(TrialColumn);
        bold.setBold(true);
        item->setFont(TrialColumn, bold);
        item->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
        const QStringList chain = lineage_->chainOf(trial).mid(1);
        QString text = QStringLiteral("← ") + chain.join(QStringLiteral(" ← "));
        if (chain.size() > kChainShown) {
            text = QStringLiteral("← ") +
                   chain.mid(0, kChainShown - 1).join(QStringLiteral(" ← ")) +
                   QStringLiteral(" ← … ← ") + chain.back();
        }
        item->setText(FromColumn, text);
        item->setToolTip(FromColumn, chain.join(QStringLiteral(" ← ")));
        item->setText(ChangesColumn, tr("exploits in its lineage: %1").arg(chain.size()));
        items.append(item);
    }
    tree_->addTopLevelItems(items);
    updateTopLevel();
    // Open again what the user had open; on the first build, the best trial's lineage.
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = tree_->topLevelItem(i);
        const QString trial = item->data(TrialColumn, kTrialRole).toString();
        if (expanded.count(trial) != 0 || selected_.count(trial) != 0 || (first && i == 0)) {
            item->setExpanded(true);
        }
    }
    for (int c = 0; c < tree_->columnCount(); ++c) {
        if (c != ChangesColumn) {
            tree_->resizeColumnToContents(c);
        }
    }
    tree_->setUpdatesEnabled(true);
    pages_->setCurrentWidget(tree_);
}

void LineageView::updateTopLevel() {
    if (tree_->topLevelItemCount() == 0) {
        return;
    }
    tree_->headerItem()->setText(BestColumn, tr("Best %1").arg(data_->metric()));
    // Best first; trials without the metric last, in the order they first copied.
    struct Entry {
        double key;
        QTreeWidgetItem* item;
    };
    std::vector<Entry> entries;
    const double sign = data_->minimize() ? 1.0 : -1.0;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = tree_->topLevelItem(i);
        const int row = data_->rowOf(item->data(TrialColumn, kTrialRole).toString());
        const TrialRow* trial = row < 0 ? nullptr : &data_->trials()[std::size_t(row)];
        const double best = trial == nullptr ? kNoValue : trial->best;
        item->setText(IterationColumn,
                      trial == nullptr ? QString() : QString::number(trial->iteration));
        item->setText(BestColumn, std::isnan(best) ? QString() : QString::number(best, 'g', 6));
        entries.push_back(
            {std::isnan(best) ? std::numeric_limits<double>::infinity() : sign * best, item});
    }
    std::vector<Entry> sorted = entries;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Entry& a, const Entry& b) { return a.key < b.key; });
    bool reordered = false;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        reordered = reordered || sorted[i].item != entries[i].item;
    }
    if (!reordered) {
        return;
    }
    std::vector<bool> open;
    for (const Entry& e : sorted) {
        open.push_back(e.item->isExpanded());
    }
    const QList<QTreeWidgetItem*> taken = tree_->invisibleRootItem()->takeChildren();
    Q_UNUSED(taken);  // the same items, added back in order below
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        tree_->addTopLevelItem(sorted[i].item);
        sorted[i].item->setExpanded(open[i]);
    }
}

void LineageView::fillSteps(QTreeWidgetItem* item) {
    if (lineage_ == nullptr || item->childCount() > 0 ||
        !item->data(TrialColumn, kTopLevelRole).toBool()) {
        return;
    }
    const QString trial = item->data(TrialColumn, kTrialRole).toString();
    QList<QTreeWidgetItem*> children;
    QString origin = trial;
    for (const LineageStep& step : lineage_->stepsOf(trial)) {
        auto* child = new QTreeWidgetItem;
        child->setData(TrialColumn, kTrialRole, step.trial);
        child->setText(TrialColumn, step.trial);
        child->setText(IterationColumn, QString::number(step.iteration));
        child->setText(FromColumn,
                       tr("%1 at iteration %2").arg(step.source).arg(step.sourceIteration));
        child->setText(ChangesColumn, step.changes.isEmpty()
                                          ? tr("(same hyperparameters)")
                                          : step.changes.join(QStringLiteral("; ")));
        QString tip = step.changes.join(QLatin1Char('\n'));
        if (!step.reason.isEmpty()) {
            tip = tr("Reason: %1").arg(step.reason) + (tip.isEmpty() ? QString() : "\n" + tip);
        }
        child->setToolTip(ChangesColumn, tip);
        children.append(child);
        origin = step.source;
    }
    auto* start = new QTreeWidgetItem;
    start->setData(TrialColumn, kTrialRole, origin);
    start->setText(TrialColumn, origin);
    start->setText(FromColumn, tr("started from scratch"));
    // What the lineage started from: the origin's config before it ever copied.
    QJsonObject config = lineage_->configBeforeFirstExploit(origin);
    FloatPaths floats = lineage_->configFloatsBeforeFirstExploit(origin);
    if (config.isEmpty() && data_->rowOf(origin) >= 0) {
        config = data_->trials()[std::size_t(data_->rowOf(origin))].config;
        floats = data_->trials()[std::size_t(data_->rowOf(origin))].configFloats;
    }
    const QStringList initial = configLines(config, floats);
    start->setText(ChangesColumn, initial.join(QStringLiteral("; ")));
    start->setToolTip(ChangesColumn, initial.join(QLatin1Char('\n')));
    QFont italic = start->font(FromColumn);
    italic.setItalic(true);
    start->setFont(FromColumn, italic);
    children.append(start);
    item->addChildren(children);
}

void LineageView::setSelectedTrials(const QStringList& ids) {
    selected_ = std::set<QString>(ids.begin(), ids.end());
    const QSignalBlocker block(tree_);
    tree_->clearSelection();
    QTreeWidgetItem* first = nullptr;
    for (const QString& id : ids) {
        if (QTreeWidgetItem* item = itemOf(id)) {
            item->setSelected(true);
            fillSteps(item);
            item->setExpanded(true);
            first = first == nullptr ? item : first;
        }
    }
    if (first != nullptr) {
        tree_->scrollToItem(first, QAbstractItemView::PositionAtTop);
    }
}

}  // namespace tunedeck::app
