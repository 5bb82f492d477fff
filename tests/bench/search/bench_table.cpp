#include "bench_table.h"

#include <QJsonArray>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

#include "bench_spec.h"
#include "objectives.h"

namespace tunedeck::bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const QString kFifoLabel = QStringLiteral("tunedeck random+fifo");

// Notes shown once below the whole table, each row pointing at its own by number, so the same
// "not available (...)" reads once however many sections it appears in.
class Notes {
  public:
    QString marker(const QString& text) {
        qsizetype at = notes_.indexOf(text);
        if (at < 0) {
            notes_ << text;
            at = notes_.size() - 1;
        }
        return QStringLiteral(" [%1]").arg(at + 1);
    }
    QString text() const {
        QString out;
        for (qsizetype i = 0; i < notes_.size(); ++i) {
            out += QStringLiteral("  [%1] %2\n").arg(i + 1).arg(notes_[i]);
        }
        return out.isEmpty() ? out : QStringLiteral("\nNotes:\n") + out;
    }

  private:
    QStringList notes_;
};

// Rows of one table, each column padded to its widest cell.
class TextTable {
  public:
    explicit TextTable(QStringList header) { rows_.push_back(std::move(header)); }
    void add(QStringList row) { rows_.push_back(std::move(row)); }
    QString text() const {
        std::vector<qsizetype> widths;
        for (const auto& row : rows_) {
            widths.resize(std::max(widths.size(), size_t(row.size())), 0);
            for (qsizetype i = 0; i < row.size(); ++i) {
                widths[size_t(i)] = std::max(widths[size_t(i)], row[i].size());
            }
        }
        QString out;
        for (const auto& row : rows_) {
            QString line;
            for (qsizetype i = 0; i < row.size(); ++i) {
                line += row[i].leftJustified(widths[size_t(i)] + 3);
            }
            out += QStringLiteral("  ") + line.trimmed() + '\n';
        }
        return out;
    }

  private:
    std::vector<QStringList> rows_;
};

QString num(double value, int digits = 4) {
    return std::isfinite(value) ? QString::number(value, 'f', digits) : QStringLiteral("-");
}

QString spread(const std::vector<double>& values, int digits = 4) {
    if (values.empty()) {
        return QStringLiteral("-");
    }
    return QStringLiteral("%1 [%2, %3]")
        .arg(num(quantile(values, 50), digits), num(quantile(values, 25), digits),
             num(quantile(values, 75), digits));
}

QString withThousands(qint64 n) {
    QString digits = QString::number(n);
    for (qsizetype at = digits.size() - 3; at > 0; at -= 3) {
        digits.insert(at, QLatin1Char(','));
    }
    return digits;
}

// Rows of both sides, Tunedeck's first.
QJsonArray rowsOf(const QJsonValue& tunedeck, const QJsonValue& optuna) {
    QJsonArray rows = tunedeck.toArray();
    for (const QJsonValue& row : optuna.toArray()) {
        rows.append(row);
    }
    return rows;
}

QString qualitySection(const QJsonObject& tunedeck, const QJsonObject& optuna, Notes& notes) {
    const QJsonObject ours = tunedeck.value(QStringLiteral("quality")).toObject();
    const QJsonObject theirs = optuna.value(QStringLiteral("quality")).toObject();
    if (ours.isEmpty() && theirs.isEmpty()) {
        return {};
    }
    std::vector<int> at;
    int seeds = 0;
    for (const Problem& problem : problems()) {
        for (const QJsonValue& row : rowsOf(ours.value(problem.name), theirs.value(problem.name))) {
            const QJsonObject bestAt = row.toObject().value(QStringLiteral("best_at")).toObject();
            for (const QString& key : bestAt.keys()) {
                at.push_back(key.toInt());
                seeds = std::max(seeds, int(bestAt.value(key).toArray().size()));
            }
        }
    }
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    QString out = QStringLiteral(
                      "== Quality: best value found, median [25%, 75%] over %1 seeds "
                      "(lower is better) ==\n")
                      .arg(seeds);
    for (const Problem& problem : problems()) {
        if (rowsOf(ours.value(problem.name), theirs.value(problem.name)).isEmpty()) {
            continue;  // left out of this run (--problems)
        }
        const double evalMs =
            ours.value(QStringLiteral("eval_ms")).toObject().value(problem.name).toDouble(kNaN);
        out += QStringLiteral("%1: %2 parameters%3; one evaluation %4 ms in-process\n")
                   .arg(problem.title)
                   .arg(problem.parameters.size())
                   .arg(std::isfinite(problem.optimum)
                            ? QStringLiteral(", optimum %1").arg(num(problem.optimum))
                            : QString(),
                        num(evalMs, 3));
        QStringList header{QStringLiteral("sampler")};
        for (int n : at) {
            header << QStringLiteral("after %1").arg(n);
        }
        header << QStringLiteral("run time") << QStringLiteral("in the sampler");
        TextTable table(header);
        for (const QJsonValue& value :
             rowsOf(ours.value(problem.name), theirs.value(problem.name))) {
            const QJsonObject row = value.toObject();
            QString label = row.value(QStringLiteral("label")).toString();
            const QJsonObject bestAt = row.value(QStringLiteral("best_at")).toObject();
            QStringList cells;
            bool any = false;
            for (int n : at) {
                const std::vector<double> values = numbersOf(bestAt.value(QString::number(n)));
                any = any || !values.empty();
                cells << spread(values);
            }
            if (!any) {
                cells.fill(QStringLiteral("not available"));
            }
            const QString note = row.value(QStringLiteral("note")).toString();
            if (!note.isEmpty()) {
                label += notes.marker(note);
            }
            cells.prepend(label);
            if (any) {
                cells << QStringLiteral("%1 s").arg(
                             num(row.value(QStringLiteral("seconds")).toDouble(), 1))
                      << QStringLiteral("%1 s").arg(
                             num(row.value(QStringLiteral("tuner_seconds")).toDouble(), 1));
            }
            table.add(cells);
        }
        out += table.text();
    }
    return out;
}

// Where a run first reached `target`: epochs spent by all trials, and the time it took (in
// epochs of one trial: a sequential run's time is its epochs).
struct Reached {
    double epochs = 0;
    double time = 0;
};

std::optional<Reached> reach(const QJsonArray& trajectory, double target) {
    for (const QJsonValue& point : trajectory) {
        const QJsonArray p = point.toArray();
        // Accuracies are k / 597 computed the same way on both sides; 1e-9 absorbs printing.
        if (p.at(1).toDouble() >= target - 1e-9) {
            return Reached{p.at(0).toDouble(), p.at(p.size() > 2 ? 2 : 0).toDouble()};
        }
    }
    return std::nullopt;
}

double bestOf(const QJsonArray& trajectory) {
    return trajectory.isEmpty() ? kNaN : trajectory.last().toArray().at(1).toDouble();
}

QString earlyStoppingSection(const QJsonObject& tunedeck, const QJsonObject& optuna, Notes& notes) {
    const QJsonObject ours = tunedeck.value(QStringLiteral("early_stopping")).toObject();
    const QJsonObject theirs = optuna.value(QStringLiteral("early_stopping")).toObject();
    const QJsonArray rows =
        rowsOf(ours.value(QStringLiteral("rows")), theirs.value(QStringLiteral("rows")));
    if (rows.isEmpty()) {
        return ours.contains(QStringLiteral("note"))
                   ? QStringLiteral("== Early stopping: %1 ==\n")
                         .arg(ours.value(QStringLiteral("note")).toString())
                   : QString();
    }
    // Each seed's target and FIFO's epochs to reach it come from the random+FIFO row.
    std::vector<double> targets;
    std::vector<double> fifoEpochs;
    for (const QJsonValue& row : rows) {
        if (row.toObject().value(QStringLiteral("label")).toString() == kFifoLabel) {
            for (const QJsonValue& run : row.toObject().value(QStringLiteral("runs")).toArray()) {
                const QJsonArray trajectory =
                    run.toObject().value(QStringLiteral("trajectory")).toArray();
                targets.push_back(bestOf(trajectory));
                const auto reached = reach(trajectory, targets.back());
                fifoEpochs.push_back(reached ? reached->epochs : kNaN);
            }
        }
    }
    const int maxEpochs = ours.value(QStringLiteral("max_epochs")).toInt();
    const qint64 budget = ours.value(QStringLiteral("budget")).toInteger();
    QString out =
        QStringLiteral(
            "== Early stopping: MLP on digits, epochs as the resource (max %1, reduction factor 3)"
            " ==\n"
            "Every run gets random+FIFO's budget: %2 trials x %1 epochs = %3 epochs. Tunedeck: %4 "
            "simulated workers; Optuna: sequential (its pruners' usual mode). %5 seeds.\n"
            "Target of seed s: the best validation accuracy random+FIFO finds with seed s "
            "(median %6%). 'epochs' = epochs all trials spent until the run first reached it "
            "(or its own best, when it never did); 'time' = how long that took, in epochs of one "
            "worker (a sequential run's time is its epochs).\n")
            .arg(maxEpochs)
            .arg(ours.value(QStringLiteral("fifo_trials")).toInt())
            .arg(withThousands(budget))
            .arg(ours.value(QStringLiteral("workers")).toInt())
            .arg(targets.size())
            .arg(num(quantile(targets, 50) * 100, 2));
    TextTable table({QStringLiteral("run"), QStringLiteral("reached"),
                     QStringLiteral("epochs, median [25%, 75%]"), QStringLiteral("time"),
                     QStringLiteral("fraction of FIFO's"), QStringLiteral("fraction of budget"),
                     QStringLiteral("best acc."), QStringLiteral("trials")});
    for (const QJsonValue& value : rows) {
        const QJsonObject row = value.toObject();
        QString label = row.value(QStringLiteral("label")).toString();
        const QJsonArray runs = row.value(QStringLiteral("runs")).toArray();
        std::vector<double> epochs, times, fractions, ofBudget, best, trials;
        int reached = 0;
        for (const QJsonValue& runValue : runs) {
            const QJsonObject run = runValue.toObject();
            const int seed = run.value(QStringLiteral("seed")).toInt();
            const QJsonArray trajectory = run.value(QStringLiteral("trajectory")).toArray();
            if (seed < 0 || size_t(seed) >= targets.size()) {
                continue;
            }
            std::optional<Reached> r = reach(trajectory, targets[size_t(seed)]);
            reached += r ? 1 : 0;
            if (!r) {
                r = reach(trajectory, bestOf(trajectory));
            }
            const double e = r ? r->epochs : kNaN;
            epochs.push_back(e);
            times.push_back(r ? r->time : kNaN);
            fractions.push_back(e / fifoEpochs[size_t(seed)]);
            ofBudget.push_back(e / double(budget));
            best.push_back(bestOf(trajectory) * 100);
            trials.push_back(run.value(QStringLiteral("trials")).toDouble());
        }
        const QString note = row.value(QStringLiteral("note")).toString();
        if (!note.isEmpty()) {
            label += notes.marker(note);
        }
        if (epochs.empty()) {
            table.add({label, QStringLiteral("not available")});
            continue;
        }
        table.add({label, QStringLiteral("%1/%2").arg(reached).arg(epochs.size()),
                   spread(epochs, 0), num(quantile(times, 50), 0), num(quantile(fractions, 50), 2),
                   num(quantile(ofBudget, 50), 2), num(quantile(best, 50), 2) + '%',
                   num(quantile(trials, 50), 0)});
    }
    return out + table.text();
}

QString overheadSection(const QJsonObject& tunedeck, const QJsonObject& optuna, Notes& notes) {
    const QJsonArray rows = rowsOf(tunedeck.value(QStringLiteral("overhead")),
                                   optuna.value(QStringLiteral("overhead")));
    if (rows.isEmpty()) {
        return {};
    }
    std::vector<int> sizes;
    for (const QJsonValue& row : rows) {
        for (const QString& key : row.toObject().keys()) {
            if (key.toInt() > 0) {
                sizes.push_back(key.toInt());
            }
        }
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    QStringList header{QStringLiteral("searcher")};
    for (int n : sizes) {
        header << QStringLiteral("after %1").arg(withThousands(n));
    }
    TextTable table(header);
    for (const QJsonValue& value : rows) {
        const QJsonObject row = value.toObject();
        QString label = row.value(QStringLiteral("label")).toString();
        QStringList cells;
        for (int n : sizes) {
            const QJsonObject cell = row.value(QString::number(n)).toObject();
            if (cell.contains(QStringLiteral("median_ms"))) {
                const double ms = cell.value(QStringLiteral("median_ms")).toDouble();
                const int samples = cell.value(QStringLiteral("samples")).toInt();
                cells << QStringLiteral("%1 ms%2").arg(
                    QString::number(ms, ms >= 100 ? 'f' : 'g', ms >= 100 ? 0 : 3),
                    samples > 1 ? QString() : QStringLiteral(" (1 sample)"));
            } else if (cell.contains(QStringLiteral("skipped"))) {
                const QString why = cell.value(QStringLiteral("skipped")).toString();
                cells << (why.startsWith(QStringLiteral("not available"))
                              ? QStringLiteral("not available")
                              : why);
                if (why.startsWith(QStringLiteral("not available")) &&
                    !label.contains(QLatin1Char('['))) {
                    label += notes.marker(why);
                }
            } else {
                cells << QStringLiteral("-");
            }
        }
        cells.prepend(label);
        table.add(cells);
    }
    return QStringLiteral(
               "== Overhead: time per suggestion (median of up to %1) after N completed trials, "
               "Hartmann-6 space ==\n")
               .arg(tunedeck.value(QStringLiteral("sizes"))
                        .toObject()
                        .value(QStringLiteral("overhead_repeats"))
                        .toInt(20)) +
           table.text();
}

QString pbtSection(const QJsonObject& tunedeck) {
    const QJsonObject pbt = tunedeck.value(QStringLiteral("pbt")).toObject();
    if (pbt.isEmpty()) {
        return {};
    }
    const std::vector<double> ours = numbersOf(pbt.value(QStringLiteral("pbt")));
    const std::vector<double> random = numbersOf(pbt.value(QStringLiteral("random")));
    QString out =
        QStringLiteral(
            "== PBT: toy problem of the PBT paper (max Q = 1.2 - |theta|^2 via surrogate steps), "
            "population %1, %2 steps each, perturbation every %3 steps, %4 seeds ==\n")
            .arg(pbt.value(QStringLiteral("population")).toInt())
            .arg(pbt.value(QStringLiteral("steps")).toInt())
            .arg(pbt.value(QStringLiteral("interval")).toInt())
            .arg(random.size());
    TextTable table({QStringLiteral("run"), QStringLiteral("best final Q, median [25%, 75%]"),
                     QStringLiteral("exploits per run")});
    if (ours.empty()) {
        table.add({QStringLiteral("tunedeck pbt"), QStringLiteral("not available")});
    } else {
        table.add({QStringLiteral("tunedeck pbt"), spread(ours),
                   num(quantile(numbersOf(pbt.value(QStringLiteral("exploits"))), 50), 0)});
    }
    table.add(
        {QStringLiteral("tunedeck random (same steps)"), spread(random), QStringLiteral("0")});
    out += table.text();
    if (pbt.contains(QStringLiteral("note"))) {
        out += QStringLiteral("  note: %1\n").arg(pbt.value(QStringLiteral("note")).toString());
    }
    const QJsonArray lineage = pbt.value(QStringLiteral("lineage")).toArray();
    if (!lineage.isEmpty()) {
        out += QStringLiteral("  Lineage of seed 0's winner %1 (final Q %2), oldest first:\n")
                   .arg(pbt.value(QStringLiteral("winner")).toString(),
                        num(pbt.value(QStringLiteral("winner_q")).toDouble()));
        for (const QJsonValue& line : lineage) {
            out += QStringLiteral("    %1\n").arg(line.toString());
        }
    }
    return out;
}

}  // namespace

double quantile(std::vector<double> values, double q) {
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
        values.end());
    if (values.empty()) {
        return kNaN;
    }
    std::sort(values.begin(), values.end());
    const double position = q / 100.0 * double(values.size() - 1);
    const auto lower = size_t(std::floor(position));
    const size_t upper = std::min(lower + 1, values.size() - 1);
    return values[lower] + (values[upper] - values[lower]) * (position - double(lower));
}

QString formatTable(const QJsonObject& tunedeck, const QJsonObject& optuna) {
    QString out;
    const QString version = optuna.value(QStringLiteral("optuna_version")).toString();
    out += QStringLiteral(
               "Search benchmark: Tunedeck vs Optuna %1, same problems, budgets and seeds\n")
               .arg(version.isEmpty() ? QStringLiteral("(not run)") : version);
    Notes notes;
    for (const QString& section :
         {qualitySection(tunedeck, optuna, notes), earlyStoppingSection(tunedeck, optuna, notes),
          overheadSection(tunedeck, optuna, notes), pbtSection(tunedeck)}) {
        if (!section.isEmpty()) {
            out += '\n' + section;
        }
    }
    return out + notes.text();
}

}  // namespace tunedeck::bench
