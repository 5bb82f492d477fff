#include "views/experiments_compare.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <set>

#include "charts/chart_theme.h"
#include "charts/curve_overlay.h"
#include "models/config_text.h"
#include "models/folder_labels.h"
#include "models/pareto_front.h"

namespace tunedeck::app {

namespace {

QString numberText(double value) {
    return std::isnan(value) ? QString() : QString::number(value, 'g', 6);
}

// An experiment is known by its folder: `asha` and its second run `asha-2` share the name asha,
// and the engine's `quickstart` and a copy of it share even the folder's name, so `label` carries
// as much of the path as tells the two apart.
QString columnName(const History& history, const QString& label) {
    const QString folder = QFileInfo(history.folder).fileName();
    if (folder.isEmpty() || folder == history.name) {
        return folder.isEmpty() ? history.name : label;
    }
    return ExperimentsCompare::tr("%1 (experiment %2)").arg(label, history.name);
}

}  // namespace

const TrialRow* bestTrialOf(const History& history, ScoreScope scope) {
    if (history.objectives.size() > 1) {
        return nullptr;  // no one best: bestTrialsOf gives the front
    }
    const int row = bestRowOf(history.trials, history.minimize, scope);
    return row < 0 ? nullptr : &history.trials[std::size_t(row)];
}

std::vector<const TrialRow*> bestTrialsOf(const History& history, ScoreScope scope) {
    std::vector<const TrialRow*> best;
    if (history.objectives.size() <= 1) {
        if (const TrialRow* one = bestTrialOf(history, scope)) {
            best.push_back(one);
        }
        return best;
    }
    // The rule of the window's table and `tunedeck-engine best` (models/pareto_front.h).
    const std::size_t k = history.objectives.size();
    std::vector<double> scores;
    scores.reserve(history.trials.size() * k);
    for (const TrialRow& row : history.trials) {
        for (std::size_t o = 0; o < k; ++o) {
            scores.push_back(objectiveScoreOf(row, history.objectives, o, scope));
        }
    }
    for (const int row : paretoFrontOf(scores, history.objectives)) {
        best.push_back(&history.trials[std::size_t(row)]);
    }
    return best;
}

namespace {

constexpr int kFrontIdsShown = 6;  // a front's ids named in its cell; more are counted

QString metricText(const History& h) {
    if (h.objectives.size() > 1) {
        return objectivesText(h.objectives);
    }
    return h.metric + (h.minimize ? QStringLiteral(" (min)") : QStringLiteral(" (max)"));
}

QString trialsText(const std::vector<const TrialRow*>& best, bool front) {
    if (!front) {
        return best.empty() ? QString() : best.front()->id;
    }
    QStringList ids;
    for (std::size_t i = 0; i < best.size() && int(i) < kFrontIdsShown; ++i) {
        ids << best[i]->id;
    }
    QString text = best.size() == 1
                       ? ExperimentsCompare::tr("Pareto front of one trial")
                       : ExperimentsCompare::tr("Pareto front of %1 trials").arg(best.size());
    if (!ids.isEmpty()) {
        text += QStringLiteral(": ") + ids.join(QStringLiteral(", "));
    }
    if (int(best.size()) > kFrontIdsShown) {
        text += ExperimentsCompare::tr(" and %1 more").arg(int(best.size()) - kFrontIdsShown);
    }
    return text;
}

// `metric`'s value in `h`'s best trial, or its range over the front ("0.1 to 0.5"); "" when
// `h` has no such objective.
QString valueText(const History& h, const std::vector<const TrialRow*>& best, const QString& metric,
                  ScoreScope scope) {
    if (h.objectives.size() <= 1) {
        return metric == h.metric && !best.empty()
                   ? numberText(scoreOf(*best.front(), h.minimize, scope))
                   : QString();
    }
    for (std::size_t o = 0; o < h.objectives.size(); ++o) {
        if (h.objectives[o].metric != metric) {
            continue;
        }
        double lo = kNoValue;
        double hi = kNoValue;
        for (const TrialRow* t : best) {
            const double v = objectiveScoreOf(*t, h.objectives, o, scope);
            lo = std::isnan(lo) ? v : std::min(lo, v);
            hi = std::isnan(hi) ? v : std::max(hi, v);
        }
        return lo == hi ? numberText(lo)
                        : ExperimentsCompare::tr("%1 to %2").arg(numberText(lo), numberText(hi));
    }
    return {};
}

QStringList objectiveNames(const History& h) {
    QStringList names;
    if (h.objectives.size() <= 1) {
        names << h.metric;
    }
    for (std::size_t o = 0; h.objectives.size() > 1 && o < h.objectives.size(); ++o) {
        names << h.objectives[o].metric;
    }
    return names;
}

}  // namespace

QList<ComparedRow> bestTrialRows(const History& first, const History& second, ScoreScope scope) {
    const std::vector<const TrialRow*> bestA = bestTrialsOf(first, scope);
    const std::vector<const TrialRow*> bestB = bestTrialsOf(second, scope);
    const bool frontA = first.objectives.size() > 1;
    const bool frontB = second.objectives.size() > 1;
    QList<ComparedRow> rows;
    rows << ComparedRow{ExperimentsCompare::tr("trial"), trialsText(bestA, frontA),
                        trialsText(bestB, frontB)};
    rows << ComparedRow{ExperimentsCompare::tr("metric"), metricText(first), metricText(second)};
    if (!frontA && !frontB) {
        // Each best trial's score on its own metric.
        rows << ComparedRow{ExperimentsCompare::tr("value, %1").arg(scoreScopeText(scope)),
                            valueText(first, bestA, first.metric, scope),
                            valueText(second, bestB, second.metric, scope)};
    } else {
        // One row per objective of either; a front's value is its range over the front.
        QStringList metrics = objectiveNames(first);
        for (const QString& m : objectiveNames(second)) {
            if (!metrics.contains(m)) {
                metrics << m;
            }
        }
        for (const QString& m : metrics) {
            rows << ComparedRow{ExperimentsCompare::tr("%1, %2").arg(m, scoreScopeText(scope)),
                                valueText(first, bestA, m, scope),
                                valueText(second, bestB, m, scope)};
        }
    }
    // A front has several configs: only a single best trial's iteration and config are listed.
    const TrialRow* a = frontA || bestA.empty() ? nullptr : bestA.front();
    const TrialRow* b = frontB || bestB.empty() ? nullptr : bestB.front();
    if (a || b) {
        rows << ComparedRow{ExperimentsCompare::tr("iterations"),
                            a ? QString::number(a->iteration) : QString(),
                            b ? QString::number(b->iteration) : QString()};
    }
    std::set<QString> keys;
    for (const TrialRow* t : {a, b}) {
        if (t) {
            for (auto it = t->flatConfig.begin(); it != t->flatConfig.end(); ++it) {
                keys.insert(it.key());
            }
        }
    }
    for (const QString& key : keys) {
        rows << ComparedRow{key, a ? configValueText(*a, key) : QString(),
                            b ? configValueText(*b, key) : QString()};
    }
    return rows;
}

ExperimentsCompare::ExperimentsCompare(const QStringList& folders, const QString& first,
                                       const QString& second, ScoreScope scope, QWidget* parent)
    : QDialog(parent), scope_(scope) {
    setWindowTitle(tr("Compare experiments"));
    setAttribute(Qt::WA_DeleteOnClose);
    first_ = pickerFor(folders, first);
    first_->setObjectName(QStringLiteral("first"));
    second_ = pickerFor(folders, second);
    second_->setObjectName(QStringLiteral("second"));
    const auto browse = [this](QComboBox* picker) {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Experiment folder"),
                                                                 picker->currentData().toString());
        if (!folder.isEmpty()) {
            picker->addItem(QFileInfo(folder).fileName(), folder);
            relabelPickers();
            picker->setCurrentIndex(picker->count() - 1);
        }
    };
    auto* browseFirst = new QPushButton(tr("Browse..."));
    auto* browseSecond = new QPushButton(tr("Browse..."));
    connect(browseFirst, &QPushButton::clicked, this, [browse, this] { browse(first_); });
    connect(browseSecond, &QPushButton::clicked, this, [browse, this] { browse(second_); });
    relabelPickers();
    connect(first_, &QComboBox::currentIndexChanged, this, &ExperimentsCompare::compare);
    connect(second_, &QComboBox::currentIndexChanged, this, &ExperimentsCompare::compare);

    auto* pickers = new QGridLayout;
    pickers->addWidget(new QLabel(tr("First:")), 0, 0);
    pickers->addWidget(first_, 0, 1);
    pickers->addWidget(browseFirst, 0, 2);
    pickers->addWidget(new QLabel(tr("Second:")), 1, 0);
    pickers->addWidget(second_, 1, 1);
    pickers->addWidget(browseSecond, 1, 2);
    pickers->setColumnStretch(1, 1);

    message_ = new QLabel;
    message_->setWordWrap(true);
    table_ = new QTableWidget;
    table_->setObjectName(QStringLiteral("comparison"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Two halves: a column as wide as its default cut the first folder's name.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    chart_ = new CurveOverlay(tr("The best trials' curves"));
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(table_);
    splitter->addWidget(chart_);
    // The chart opened at no height under a table that took all the room; the table holds a
    // few rows, and the legend beside the chart one line per curve (a Pareto front's eight).
    chart_->setMinimumHeight(300);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pickers);
    layout->addWidget(message_);
    layout->addWidget(splitter, 1);
    resize(900, 700);
    applyChartTheme(this);
    compare();
}

QComboBox* ExperimentsCompare::pickerFor(const QStringList& folders, const QString& chosen) {
    auto* picker = new QComboBox;
    for (const QString& folder : folders) {
        picker->addItem(QFileInfo(folder).fileName(), folder);
    }
    int index = picker->findData(chosen);
    if (index < 0 && !chosen.isEmpty()) {
        picker->addItem(QFileInfo(chosen).fileName(), chosen);
        index = picker->count() - 1;
    }
    picker->setCurrentIndex(std::max(0, index));
    return picker;
}

void ExperimentsCompare::relabelPickers() {
    QStringList folders;
    for (const QComboBox* picker : {first_, second_}) {
        for (int i = 0; picker && i < picker->count(); ++i) {
            folders << picker->itemData(i).toString();
        }
    }
    const QStringList labels = distinguishingFolderLabels(folders);
    int next = 0;
    for (QComboBox* picker : {first_, second_}) {
        for (int i = 0; picker && i < picker->count(); ++i, ++next) {
            picker->setItemText(i, labels[next]);
            picker->setItemData(i, folders[next], Qt::ToolTipRole);
        }
    }
}

void ExperimentsCompare::compare() {
    const QString a = first_ ? first_->currentData().toString() : QString();
    const QString b = second_ ? second_->currentData().toString() : QString();
    if (a.isEmpty() || b.isEmpty()) {
        message_->setText(tr("Choose two experiment folders."));
        return;
    }
    message_->setText(tr("Reading..."));
    auto histories = std::make_shared<std::pair<History, History>>();
    auto error = std::make_shared<QString>();
    read_.start(
        this,
        [a, b, histories, error] {
            QString e;
            if (!readHistory(a, &histories->first, &e) || !readHistory(b, &histories->second, &e)) {
                *error = e;
            }
        },
        [this, histories, error] {
            if (!error->isEmpty()) {
                message_->setText(*error);
            } else {
                message_->clear();
                showComparison(histories->first, histories->second);
            }
            emit compared();
        });
}

void ExperimentsCompare::showComparison(const History& first, const History& second) {
    const QList<ComparedRow> rows = bestTrialRows(first, second, scope_);
    table_->clear();
    table_->setColumnCount(2);
    const QStringList labels = distinguishingFolderLabels({first.folder, second.folder});
    const QString names[2] = {columnName(first, labels[0]), columnName(second, labels[1])};
    for (int c = 0; c < 2; ++c) {
        auto* header = new QTableWidgetItem(names[c]);
        header->setToolTip(QDir::toNativeSeparators(c == 0 ? first.folder : second.folder));
        table_->setHorizontalHeaderItem(c, header);
    }
    table_->setRowCount(int(rows.size()));
    QStringList keys;
    for (int r = 0; r < rows.size(); ++r) {
        keys << rows[r].key;
        table_->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        table_->setItem(r, 1, new QTableWidgetItem(rows[r].second));
        if (rows[r].differs()) {
            for (int c = 0; c < 2; ++c) {
                QFont font = table_->item(r, c)->font();
                font.setBold(true);
                table_->item(r, c)->setFont(font);
                table_->item(r, c)->setBackground(QColor(255, 196, 0, 60));
            }
        }
    }
    table_->setVerticalHeaderLabels(keys);

    // The best trial's curve, or each of the front's (of its first objective).
    std::vector<NamedCurve> curves;
    for (int c = 0; c < 2; ++c) {
        const History& h = c == 0 ? first : second;
        for (const TrialRow* best : bestTrialsOf(h, scope_)) {
            curves.push_back(
                {QStringLiteral("%1: %2").arg(names[c], best->id), best->iterations, best->values});
        }
    }
    chart_->showCurves(
        curves, tr("iteration"),
        first.metric == second.metric ? first.metric : first.metric + " / " + second.metric);
}

}  // namespace tunedeck::app
