#include "views/trial_detail_view.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QHBoxLayout>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "config/config_yaml.h"
#include "core/trial_runtime.h"
#include "models/config_text.h"
#include "models/trial_table_model.h"

namespace tunedeck::app {

namespace {

QString escaped(const QString& text) {
    return text.toHtmlEscaped();
}

QString number(double value) {
    return std::isnan(value) ? QStringLiteral("-") : QString::number(value, 'g', 6);
}

// A table with a header row (bold, left-aligned) and one row per entry of `rows`.
QString tableHtml(const QStringList& header, const QList<QStringList>& rows) {
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    if (!header.isEmpty()) {
        html += QStringLiteral("<tr>");
        for (const QString& cell : header) {
            html += QStringLiteral("<th align='left'>%1</th>").arg(escaped(cell));
        }
        html += QStringLiteral("</tr>");
    }
    for (const QStringList& row : rows) {
        html += QStringLiteral("<tr>");
        for (const QString& cell : row) {
            html += QStringLiteral("<td>%1</td>").arg(cell);  // cells come escaped
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

QString heading(const QString& text) {
    return QStringLiteral("<h4>%1</h4>").arg(escaped(text));
}

// The status of a change in the table's words: "stopped by ASHA at 6" for a scheduler's stop.
QString statusWords(const QString& status, const QString& reason, qint64 iteration) {
    if (status == QLatin1String("TERMINATED")) {
        if (const std::optional<EarlyStop> stop = ::tunedeck::earlyStopOf(reason, iteration)) {
            return TrialTableModel::earlyStopCellText(*stop);
        }
        if (::tunedeck::stoppedByUser(reason)) {
            return TrialTableModel::tr("stopped by the user");
        }
    }
    return TrialTableModel::statusText(status);
}

// A gang trial's size and where each rank runs, escaped HTML: "2 — rank 0 on local (GPU 0),<br>
// rank 1 on ...".
QString ranksText(const std::vector<events::RankPlacement>& ranks) {
    QStringList places;
    for (const events::RankPlacement& rank : ranks) {
        QStringList cards;
        for (const int gpu : rank.gpus) {
            cards << QString::number(gpu);
        }
        places << (cards.isEmpty()
                       ? TrialDetailView::tr("rank %1 on %2").arg(rank.rank).arg(escaped(rank.node))
                   : cards.size() == 1
                       ? TrialDetailView::tr("rank %1 on %2 (GPU %3)")
                             .arg(rank.rank)
                             .arg(escaped(rank.node), cards.first())
                       : TrialDetailView::tr("rank %1 on %2 (GPUs %3)")
                             .arg(rank.rank)
                             .arg(escaped(rank.node), cards.join(QStringLiteral(", "))));
    }
    // One rank a line: a gang of 8 on a narrow window stays readable.
    return QStringLiteral("%1 \u2014 %2")
        .arg(ranks.size())
        .arg(places.join(QStringLiteral(",<br>")));
}

// How many GPUs the trial has, then which: "1 (GPU 0)", "2 (GPUs 0, 1)"; a gang's are its ranks'
// ("2 in all, 1 per rank"; the Ranks row says which). A bare "0" read as no GPU at all.
QString gpusText(const std::vector<int>& gpus, const std::vector<events::RankPlacement>& ranks) {
    std::size_t total = ranks.empty() ? gpus.size() : 0;
    bool even = true;
    for (const events::RankPlacement& rank : ranks) {
        total += rank.gpus.size();
        even = even && rank.gpus.size() == ranks.front().gpus.size();
    }
    QStringList cards;
    for (const int gpu : gpus) {
        cards << QString::number(gpu);
    }
    if (total == 0) {
        return TrialDetailView::tr("none");
    }
    if (!ranks.empty()) {
        return even ? TrialDetailView::tr("%1 in all, %2 per rank")
                          .arg(total)
                          .arg(ranks.front().gpus.size())
                    : TrialDetailView::tr("%1 in all").arg(total);
    }
    return cards.size() == 1 ? TrialDetailView::tr("1 (GPU %1)").arg(cards.first())
                             : TrialDetailView::tr("%1 (GPUs %2)")
                                   .arg(cards.size())
                                   .arg(cards.join(QStringLiteral(", ")));
}

}  // namespace

TrialDetailView::TrialDetailView(const ExperimentData* data, QWidget* parent)
    : QWidget(parent), data_(data) {
    text_ = new QTextBrowser;
    text_->setObjectName(QStringLiteral("trialDetail"));
    text_->setOpenLinks(false);
    copyYaml_ = new QPushButton(tr("Copy config as YAML"));
    copyYaml_->setObjectName(QStringLiteral("copyTrialConfigYaml"));
    copyJson_ = new QPushButton(tr("Copy config as JSON"));
    copyJson_->setObjectName(QStringLiteral("copyTrialConfigJson"));
    connect(copyYaml_, &QPushButton::clicked, this, [this] { copyConfig(true); });
    connect(copyJson_, &QPushButton::clicked, this, [this] { copyConfig(false); });
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(copyYaml_);
    buttons->addWidget(copyJson_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(text_, 1);
    render();
}

void TrialDetailView::setTrials(const QStringList& ids) {
    trials_ = ids;
    stale_ = true;
    if (isVisible()) {
        render();
    }
}

void TrialDetailView::refresh(const ExperimentData::Changes& changes) {
    if (trials_.size() != 1) {
        return;  // what it says does not change with the data
    }
    const int row = data_->rowOf(trials_.first());
    if (changes.rowsAdded || changes.scopeChanged || changes.rows.count(row) > 0) {
        stale_ = true;
        if (isVisible()) {
            render();
        }
    }
}

void TrialDetailView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) {
        render();
    }
}

const TrialRow* TrialDetailView::shownRow() const {
    const int row = trials_.size() == 1 ? data_->rowOf(trials_.first()) : -1;
    return row < 0 ? nullptr : &data_->trials()[std::size_t(row)];
}

void TrialDetailView::render() {
    stale_ = false;
    const TrialRow* row = shownRow();
    copyYaml_->setEnabled(row != nullptr);
    copyJson_->setEnabled(row != nullptr);
    if (row == nullptr) {
        const QString message =
            trials_.size() > 1
                ? tr("%n trials selected. Select one trial in the table to see its config, "
                     "metrics, status history and checkpoints here; the Compare tab sets "
                     "the selected trials side by side.",
                     nullptr, int(trials_.size()))
                : tr("No trial selected. Select a trial in the table to see its config, "
                     "metrics, status history and checkpoints here.");
        text_->setHtml(QStringLiteral("<p>%1</p>").arg(escaped(message)));
        return;
    }
    const int scroll = text_->verticalScrollBar()->value();  // a live update keeps the place
    text_->setHtml(trialHtml(*row));
    text_->verticalScrollBar()->setValue(scroll);
}

QString TrialDetailView::trialHtml(const TrialRow& row) const {
    const QString status = statusWords(row.status, row.reason, row.iteration);
    QString html = QStringLiteral("<h3>%1 &mdash; %2</h3>").arg(escaped(row.id), escaped(status));
    if (row.status == QLatin1String("ERROR") && !row.reason.isEmpty()) {
        html += QStringLiteral("<p style='color:#e53935'><b>%1</b> %2</p>")
                    .arg(escaped(tr("Error:")), escaped(row.reason));
    }
    if (!row.note.isEmpty()) {  // the researcher's own words first (Trial > Edit note...)
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(escaped(tr("Note:")),
                         escaped(row.note).replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    }
    QList<QStringList> facts{
        {escaped(tr("Node")), escaped(row.node.isEmpty() ? tr("not placed yet") : row.node)},
        {escaped(tr("GPUs")), escaped(gpusText(row.gpus, row.ranks))}};
    if (!row.ranks.empty()) {
        facts.append({escaped(tr("Ranks")), ranksText(row.ranks)});
    }
    facts << QList<QStringList>{
        {escaped(tr("Iteration")), QString::number(row.iteration)},
        {escaped(tr("Runtime")), escaped(runtimeText(trialRuntime(row.timeTotalS, row.iteration)))},
        {escaped(tr("Failures")), QString::number(row.failures)}};
    html += tableHtml({}, facts);

    html += heading(tr("Config"));
    QList<QStringList> config;
    const QStringList keys = row.flatConfig.keys();  // sorted, as the table's columns
    for (const QString& key : keys) {
        config.append({escaped(key), escaped(configValueText(row, key))});
    }
    html += config.isEmpty() ? QStringLiteral("<p>%1</p>").arg(escaped(tr("No config yet.")))
                             : tableHtml({tr("Parameter"), tr("Value")}, config);

    html += heading(tr("Metrics"));
    // The objective first, with its best by the experiment's mode; the rest as the last result
    // has them (a best needs a direction, which only the objective has).
    QList<QStringList> metrics;
    const QString objective = data_->metric();
    if (!objective.isEmpty() && (row.metrics.contains(objective) || !std::isnan(row.latest))) {
        metrics.append({QStringLiteral("<b>%1</b>").arg(escaped(objective)),
                        number(row.metrics.value(objective, row.latest)), number(row.best)});
    }
    QStringList names = row.metrics.keys();
    std::sort(names.begin(), names.end());
    for (const QString& name : names) {
        if (name != objective) {
            metrics.append({escaped(name), number(row.metrics.value(name)), QString()});
        }
    }
    html += metrics.isEmpty()
                ? QStringLiteral("<p>%1</p>").arg(escaped(tr("No results reported yet.")))
                : tableHtml({tr("Metric"), tr("Last"),
                             tr("Best (%1)").arg(data_->minimize() ? tr("lowest") : tr("highest"))},
                            metrics);
    // Two columns, so what happened to it (status history, checkpoints) shows beside what it is
    // without scrolling in the tab's height at 1280x800.
    return QStringLiteral(
               "<table width='100%' cellspacing='0' cellpadding='0'><tr>"
               "<td valign='top' width='40%'>%1</td><td width='16'></td>"
               "<td valign='top'>%2</td></tr></table>")
        .arg(html, statusHistoryHtml(row) + checkpointsHtml(row));
}

QString TrialDetailView::statusHistoryHtml(const TrialRow& row) const {
    QString html = heading(tr("Status history"));
    if (row.statusHistory.empty()) {
        return html + QStringLiteral("<p>%1</p>").arg(escaped(tr("No status changes recorded.")));
    }
    // A folder's history keeps the changes without their times: no column of dashes then.
    const bool timed = std::any_of(row.statusHistory.begin(), row.statusHistory.end(),
                                   [](const TrialStatusChange& c) { return c.time > 0; });
    QList<QStringList> rows;
    for (const TrialStatusChange& change : row.statusHistory) {
        QStringList cells;
        if (timed) {
            cells << (change.time > 0 ? QDateTime::fromMSecsSinceEpoch(qint64(change.time * 1000))
                                            .toString(QStringLiteral("HH:mm:ss"))
                                      : QString());
        }
        const qint64 iteration = change.iteration > 0 ? change.iteration : row.iteration;
        cells << escaped(statusWords(change.status, change.reason, iteration))
              << escaped(change.node) << QString::number(change.iteration)
              << escaped(change.reason);
        rows.append(cells);
    }
    QStringList header{tr("Status"), tr("Node"), tr("Iteration"), tr("Reason")};
    if (timed) {
        header.prepend(tr("Time"));
    }
    return html + tableHtml(header, rows);
}

QString TrialDetailView::checkpointsHtml(const TrialRow& row) const {
    QString html = heading(tr("Checkpoints"));
    if (row.checkpoints.empty()) {
        return html + QStringLiteral("<p>%1</p>").arg(escaped(tr("No checkpoints saved.")));
    }
    QList<QStringList> rows;
    for (const TrialCheckpoint& checkpoint : row.checkpoints) {
        rows.append({QString::number(checkpoint.iteration), escaped(checkpoint.path)});
    }
    return html + tableHtml({tr("Iteration"), tr("Path on its node")}, rows);
}

void TrialDetailView::copyConfig(bool yaml) {
    if (const TrialRow* row = shownRow()) {
        const QByteArray text =
            yaml ? configYamlDocument(row->config, row->configFloats)
                 : configJsonText(row->config, row->configFloats, JsonLayout::Indented);
        QApplication::clipboard()->setText(QString::fromUtf8(text));
    }
}

}  // namespace tunedeck::app
