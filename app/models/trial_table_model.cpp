#include "models/trial_table_model.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <iterator>

#include "core/trial_note.h"
#include "core/trial_runtime.h"
#include "models/config_text.h"
#include "models/pareto_front.h"
#include "models/trial_outcome.h"

namespace tunedeck::app {

namespace {

constexpr int kNoteCellChars = 60;  // the rest is in the cell's tooltip and the Trial tab

QString formatNumber(double value) {
    return std::isnan(value) ? QString() : QString::number(value, 'g', 6);
}

// The metrics with a column of their own: all but the objective, which has two.
QStringList metricColumnsOf(const ExperimentData& data) {
    QStringList names = data.metricNames();
    names.removeAll(data.metric());
    return names;
}

}  // namespace

QString TrialTableModel::earlyStopCellText(const EarlyStop& stop) {
    const QString scheduler = stop.scheduler == QLatin1String("median stopping")
                                  ? tr("median stopping")
                                  : stop.scheduler;  // ASHA, HyperBand: names
    return tr("stopped by %1 at %2").arg(scheduler).arg(stop.iteration);
}

QString TrialTableModel::statusText(const QString& status) {
    if (status == QLatin1String("PENDING")) {
        return tr("PENDING");
    }
    if (status == QLatin1String("RUNNING")) {
        return tr("RUNNING");
    }
    if (status == QLatin1String("PAUSED")) {
        return tr("PAUSED");
    }
    if (status == QLatin1String("TERMINATED")) {
        return tr("TERMINATED");
    }
    if (status == QLatin1String("ERROR")) {
        return tr("ERROR");
    }
    return status;  // a newer engine's: as it says it
}

TrialTableModel::TrialTableModel(const ExperimentData* data, QObject* parent)
    : QAbstractTableModel(parent), data_(data) {}

QColor TrialTableModel::statusColor(const QString& status) {
    if (status == QLatin1String("RUNNING")) {
        return QColor(0x1e, 0x88, 0xe5);
    }
    if (status == QLatin1String("TERMINATED")) {
        return QColor(0x43, 0xa0, 0x47);
    }
    if (status == QLatin1String("ERROR")) {
        return QColor(0xe5, 0x39, 0x35);
    }
    if (status == QLatin1String("PAUSED")) {
        return QColor(0xfb, 0x8c, 0x00);
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

void TrialTableModel::reset() {
    beginResetModel();
    rows_ = int(data_->trials().size());
    metricKeys_ = metricColumnsOf(*data_);
    configKeys_ = data_->configKeys();
    shownBest_ = data_->bestRow();
    front_ = data_->isMultiObjective();
    shownFront_ = data_->paretoFront();
    const std::vector<TrialRow>& trials = data_->trials();
    notes_ = std::any_of(trials.begin(), trials.end(),
                         [](const TrialRow& t) { return !t.note.isEmpty(); });
    endResetModel();
}

bool TrialTableModel::refreshResets(const ExperimentData::Changes& changes) const {
    if ((changes.configKeysChanged && configKeys_ != data_->configKeys()) ||
        (changes.metricNamesChanged && metricKeys_ != metricColumnsOf(*data_)) ||
        front_ != data_->isMultiObjective()) {
        return true;
    }
    // The first note brings its column.
    return !notes_ && std::any_of(changes.rows.begin(), changes.rows.end(), [&](int row) {
        return row < int(data_->trials().size()) &&
               !data_->trials()[std::size_t(row)].note.isEmpty();
    });
}

void TrialTableModel::refresh(const ExperimentData::Changes& changes) {
    if (refreshResets(changes)) {
        reset();
        return;
    }
    const int now = int(data_->trials().size());
    if (now > rows_) {
        beginInsertRows({}, rows_, now - 1);
        rows_ = now;
        endInsertRows();
    }
    int first = -1;
    int last = -1;
    if (!changes.rows.empty()) {
        first = *changes.rows.begin();
        last = std::min(*changes.rows.rbegin(), rows_ - 1);
        if (first >= 0 && first <= last) {
            emit dataChanged(index(first, 0), index(last, columnCount() - 1));
        }
    }
    // The bold row moves with a result or another scope: both rows are painted anew (unless
    // they were just now).
    const int best = data_->bestRow();
    if (best != shownBest_) {
        for (const int row : {shownBest_, best}) {
            if (row >= 0 && row < rows_ && (row < first || row > last)) {
                emit dataChanged(index(row, 0), index(row, columnCount() - 1));
            }
        }
        shownBest_ = best;
    }
    // So do the rows that joined or left the front.
    const std::vector<int>& front = data_->paretoFront();
    if (front != shownFront_) {
        std::vector<int> moved;
        std::set_symmetric_difference(front.begin(), front.end(), shownFront_.begin(),
                                      shownFront_.end(), std::back_inserter(moved));
        for (const int row : moved) {
            if (row >= 0 && row < rows_ && (row < first || row > last)) {
                emit dataChanged(index(row, 0), index(row, columnCount() - 1));
            }
        }
        shownFront_ = front;
    }
}

QString TrialTableModel::trialAt(int row) const {
    return row >= 0 && row < rows_ ? data_->trials()[std::size_t(row)].id : QString();
}

int TrialTableModel::noteColumn() const {
    return notes_ ? FirstExtra : -1;
}

int TrialTableModel::frontColumn() const {
    return front_ ? FirstExtra + (notes_ ? 1 : 0) : -1;
}

int TrialTableModel::firstMetricColumn() const {
    return FirstExtra + (notes_ ? 1 : 0) + (front_ ? 1 : 0);
}

int TrialTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows_;
}

int TrialTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0
                            : firstMetricColumn() + int(metricKeys_.size() + configKeys_.size());
}

QVariant TrialTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_) {
        return {};
    }
    const TrialRow& t = data_->trials()[std::size_t(index.row())];
    const std::optional<double> runtime = trialRuntime(t.timeTotalS, t.iteration);
    const int column = index.column();
    const std::optional<EarlyStop> early = column == Status ? earlyStopOf(t) : std::nullopt;
    // Stopped by the user: not green, not "done" (models/trial_outcome.h).
    const bool userStopped = column == Status && outcomeOf(t) == TrialOutcome::StoppedByUser;
    if (role == Qt::ForegroundRole && column == Status) {
        return userStopped ? QColor(0x75, 0x75, 0x75)
               : early     ? QColor(0x8d, 0x6e, 0x63)
                           : statusColor(t.status);
    }
    if (role == Qt::ToolTipRole && column == Status && !t.reason.isEmpty()) {
        return t.reason;
    }
    const bool note = column == noteColumn();
    if (role == Qt::ToolTipRole && note && !t.note.isEmpty()) {
        return t.note;  // whole, with its line breaks
    }
    const int firstMetric = firstMetricColumn();
    const int firstConfig = firstMetric + int(metricKeys_.size());
    // Numbers to the right; the note is text, like the config values after the metrics.
    if (role == Qt::TextAlignmentRole && column >= Iteration && column < firstConfig && !note &&
        column != frontColumn()) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    // Bold: the best row, or the rows on the Pareto front (ExperimentData::isBest).
    const bool best = data_->isBest(index.row());
    const bool onFront = front_ && best;
    if (role == Qt::TextAlignmentRole && column == frontColumn()) {
        return int(Qt::AlignCenter);
    }
    if (role == Qt::FontRole && best) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole && onFront && column != Status) {
        QStringList values;
        for (std::size_t i = 0; i < data_->objectives().size(); ++i) {
            values << QStringLiteral("%1 = %2").arg(
                data_->objectives()[i].metric, formatNumber(data_->objectiveScore(index.row(), i)));
        }
        return tr("On the Pareto front of %1 by %2: %3")
            .arg(objectivesText(data_->objectives()), scoreScopeText(data_->scope()),
                 values.join(QStringLiteral(", ")));
    }
    if (role == Qt::ToolTipRole && best && column != Status) {
        return tr("Best trial by %1: %2 = %3")
            .arg(scoreScopeText(data_->scope()), data_->metric(),
                 formatNumber(data_->score(index.row())));
    }
    if (role != Qt::DisplayRole && role != Qt::UserRole) {
        return {};
    }
    const bool sortValue = role == Qt::UserRole;
    switch (column) {
        case Trial:
            return t.id;
        case Status:
            if (userStopped) {
                return sortValue ? QStringLiteral("USER_STOPPED") : tr("stopped by the user");
            }
            // NNI's EARLY_STOPPED: apart from the trials that ran to their end.
            if (early) {
                return sortValue ? QStringLiteral("EARLY_STOPPED") : earlyStopCellText(*early);
            }
            return sortValue ? t.status : statusText(t.status);
        case Node:
            return t.node;
        case Iteration:
            return t.iteration;
        case Latest:
            return sortValue ? QVariant(t.latest) : QVariant(formatNumber(t.latest));
        case Best:
            return sortValue ? QVariant(t.best) : QVariant(formatNumber(t.best));
        case Runtime:
            return sortValue ? QVariant(runtime.value_or(-1)) : QVariant(runtimeText(runtime));
        default: {
            if (note) {
                return sortValue ? t.note : trialNoteLine(t.note, kNoteCellChars);
            }
            if (column == frontColumn()) {
                return sortValue ? QVariant(onFront ? 1 : 0)
                                 : QVariant(onFront ? QStringLiteral("\u2605") : QString());
            }
            if (column < firstConfig) {
                const double value =
                    t.metrics.value(metricKeys_.value(column - firstMetric), kNoValue);
                return sortValue ? QVariant(value) : QVariant(formatNumber(value));
            }
            const QString key = configKeys_.value(column - firstConfig);
            const QJsonValue value = t.flatConfig.value(key);
            return sortValue && value.isDouble() ? QVariant(value.toDouble())
                                                 : QVariant(configValueText(t, key));
        }
    }
}

QVariant TrialTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    const QString metric = data_->metric().isEmpty() ? tr("metric") : data_->metric();
    switch (section) {
        case Trial:
            return tr("Trial");
        case Status:
            return tr("Status");
        case Node:
            return tr("Node");
        case Iteration:
            return tr("Iteration");
        case Latest:
            return metric;
        case Best:
            return tr("best %1").arg(metric);
        case Runtime:
            return tr("Runtime");
        default: {
            if (section == noteColumn()) {
                return tr("Note");
            }
            if (section == frontColumn()) {
                return tr("Pareto front");
            }
            const int metrics = int(metricKeys_.size());
            const int first = firstMetricColumn();
            return section - first < metrics ? metricKeys_.value(section - first)
                                             : configKeys_.value(section - first - metrics);
        }
    }
}

TrialFilter::TrialFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(Qt::UserRole);
}

void TrialFilter::setSearch(const QString& text) {
    search_ = text.trimmed();
    invalidateFilter();
}

void TrialFilter::setStatus(const QString& status) {
    status_ = status;
    invalidateFilter();
}

void TrialFilter::setTrials(std::optional<QSet<QString>> trials) {
    trials_ = std::move(trials);
    invalidateFilter();
}

bool TrialFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* source = sourceModel();
    if (trials_ &&
        !trials_->contains(
            source->index(sourceRow, TrialTableModel::Trial, sourceParent).data().toString())) {
        return false;
    }
    if (!status_.isEmpty() && source->index(sourceRow, TrialTableModel::Status, sourceParent)
                                      .data(Qt::UserRole)
                                      .toString() != status_) {
        return false;
    }
    if (search_.isEmpty()) {
        return true;
    }
    for (int column = 0; column < source->columnCount(sourceParent); ++column) {
        if (source->index(sourceRow, column, sourceParent)
                .data()
                .toString()
                .contains(search_, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

}  // namespace tunedeck::app
