#include "runtime/progress_reporter.h"

#include <unistd.h>

#include <QJsonArray>
#include <QMap>
#include <algorithm>

#include "core/counted.h"
#include "core/search_space.h"
#include "runtime/trial_command.h"

namespace tunedeck {

namespace {

constexpr qint64 kTableRefreshMs = 500;    // a few redraws a second reads as live, costs nothing
constexpr qint64 kLinesRefreshMs = 10000;  // logs stay readable
constexpr int kMaxTableRows = 20;          // the rest is summarised in one line
constexpr int kMaxConfigColumns = 6;
constexpr int kMaxCardLines = 16;  // a node of 8 cards twice; more are summarised

QString pad(const QString& text, int width) {
    return text.leftJustified(width, ' ', true);
}

QString formatNumber(double value) {
    return QString::number(value, 'g', 4);
}

QString formatDuration(qint64 ms) {
    const qint64 s = ms / 1000;
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600, 2, 10, QChar('0'))
        .arg((s / 60) % 60, 2, 10, QChar('0'))
        .arg(s % 60, 2, 10, QChar('0'));
}

}  // namespace

ProgressReporter::ProgressReporter(const ExperimentSpec& spec, QString experimentDir, Style style,
                                   std::FILE* out)
    : spec_(spec), experimentDir_(std::move(experimentDir)), style_(style), out_(out) {
    sinceStart_.start();
    for (const auto& [path, domain] : spec_.searchSpace.flatDomains()) {
        (void)domain;
        if (configColumns_.size() < kMaxConfigColumns) {
            configColumns_.append(path);
        }
    }
}

ProgressReporter::Style ProgressReporter::styleFor(std::FILE* out, bool quiet) {
    if (quiet) {
        return Style::Quiet;
    }
    return ::isatty(fileno(out)) ? Style::Table : Style::Lines;
}

QString ProgressReporter::metricText(const Trial& trial) const {
    if (spec_.metric.isEmpty()) {
        return {};
    }
    const QJsonValue v = trial.lastResult.value(spec_.metric);
    return v.isDouble() ? formatNumber(v.toDouble()) : QString();
}

QString ProgressReporter::objectivesText() const {
    QStringList parts;
    for (const Objective& o : spec_.objectives) {
        parts << QStringLiteral("%1 %2").arg(o.metric, metricModeName(o.mode));
    }
    return parts.join(QStringLiteral(", "));
}

QString ProgressReporter::frontText(const ProgressSnapshot& snapshot) const {
    constexpr int kShown = 8;
    const qsizetype n = snapshot.paretoFront.size();
    if (n == 0) {
        return QStringLiteral("no trial has reported every objective yet");
    }
    QString text = QStringLiteral("%1: %2").arg(
        counted(n, "trial"), snapshot.paretoFront.mid(0, kShown).join(QStringLiteral(", ")));
    if (n > kShown) {
        text += QStringLiteral(", ...");
    }
    return text;
}

QString ProgressReporter::statusLine(const ProgressSnapshot& snapshot) const {
    QMap<TrialStatus, int> counts;
    for (const Trial* t : snapshot.trials) {
        counts[t->status]++;
    }
    QStringList parts;
    for (TrialStatus s : {TrialStatus::Running, TrialStatus::Pending, TrialStatus::Paused,
                          TrialStatus::Terminated, TrialStatus::Error}) {
        if (counts.value(s) > 0) {
            parts << QStringLiteral("%1 %2").arg(counts.value(s)).arg(trialStatusName(s));
        }
    }
    QString total = QString::number(snapshot.trials.size());
    if (snapshot.totalTrials) {
        total += QStringLiteral("/%1").arg(*snapshot.totalTrials);
    }
    return QStringLiteral("Trials %1: %2").arg(total, parts.join(QStringLiteral(" | ")));
}

QStringList ProgressReporter::cardLines(const ProgressSnapshot& snapshot) const {
    QStringList lines;
    int cards = 0;
    for (const NodeUsageSample& sample : snapshot.nodeUsage) {
        for (const node::GpuUsage& gpu : sample.usage.gpus) {
            if (++cards > kMaxCardLines) {
                continue;
            }
            QString line = QStringLiteral("GPU %1/%2 %3: ")
                               .arg(sample.node)
                               .arg(gpu.index)
                               .arg(QString::fromStdString(gpu.name));
            if (gpu.lost) {
                lines << line + QStringLiteral("lost");
                continue;
            }
            // A reading the driver does not give is null in the sample and "n/a" here.
            const auto reading = [](const std::optional<double>& v, const char* unit) {
                return v ? QStringLiteral("%1%2").arg(qRound(*v)).arg(unit) : QStringLiteral("n/a");
            };
            QStringList trials;
            for (const node::TrialId& trial : gpu.trials) {
                trials << QString::fromStdString(trial.text);
            }
            line += QStringLiteral("%1 busy | %2/%3 GiB | %4 | %5 | trials: %6")
                        .arg(reading(gpu.utilizationPercent, "%"))
                        .arg(double(gpu.memoryUsedMb) / 1024.0, 0, 'f', 1)
                        .arg(double(gpu.memoryTotalMb) / 1024.0, 0, 'f', 1)
                        .arg(reading(gpu.temperatureC, " C"), reading(gpu.powerW, " W"),
                             trials.isEmpty() ? QStringLiteral("none") : trials.join(' '));
            lines << line;
        }
    }
    if (cards > kMaxCardLines) {
        lines << QStringLiteral("... %1 more GPUs").arg(cards - kMaxCardLines);
    }
    return lines;
}

QStringList ProgressReporter::renderTable(const ProgressSnapshot& snapshot, int maxRows) const {
    QStringList lines;
    lines
        << QStringLiteral("== %1 == running for %2 | %3 results | CPU %4/%5%6")
               .arg(spec_.name, formatDuration(sinceStart_.elapsed()))
               .arg(snapshot.totalResults)
               .arg(snapshot.cpuUsed)
               .arg(snapshot.cpuTotal)
               .arg(
                   snapshot.gpuTotal > 0
                       ? QStringLiteral(" | GPU %1/%2").arg(snapshot.gpuUsed).arg(snapshot.gpuTotal)
                       : QString());
    lines << statusLine(snapshot) << cardLines(snapshot);
    if (spec_.objectives.size() > 1) {
        lines << QStringLiteral("Pareto front (%1): %2").arg(objectivesText(), frontText(snapshot));
    } else if (snapshot.bestValue) {
        lines << QStringLiteral("Best %1 (%2): %3 in %4")
                     .arg(spec_.metric, metricModeName(spec_.mode),
                          formatNumber(*snapshot.bestValue), snapshot.bestTrialId);
    }
    QStringList header{pad(QStringLiteral("Trial"), 8), pad(QStringLiteral("Status"), 10)};
    for (const QString& c : configColumns_) {
        header << pad(c, std::max<int>(10, c.size()));
    }
    header << pad(QStringLiteral("iter"), 6) << pad(QStringLiteral("time(s)"), 8);
    header << pad(spec_.metric.isEmpty() ? QString() : spec_.metric, 12) << QStringLiteral("info");
    lines << header.join(' ');

    // Running trials first (they change), then the rest, most recent last.
    std::vector<const Trial*> ordered(snapshot.trials.begin(), snapshot.trials.end());
    std::stable_partition(ordered.begin(), ordered.end(),
                          [](const Trial* t) { return t->status == TrialStatus::Running; });
    int shown = 0;
    for (const Trial* t : ordered) {
        if (shown == maxRows) {
            lines << QStringLiteral("... %1 more trials").arg(ordered.size() - shown);
            break;
        }
        QStringList row{pad(t->id, 8), pad(trialStatusName(t->status), 10)};
        for (const QString& c : configColumns_) {
            const QJsonValue v = valueAtPath(t->config, c);
            const QString text = v.isDouble() ? formatNumber(v.toDouble()) : formatConfigValue(v);
            row << pad(text.left(12), std::max<int>(10, c.size()));
        }
        row << pad(QString::number(t->iteration), 6)
            << pad(QString::number(t->timeTotalS, 'f', 1), 8) << pad(metricText(*t), 12);
        // Why a trial waits, or why it failed; a reason it waited for once is stale later.
        const bool waits = t->status == TrialStatus::Pending || t->status == TrialStatus::Paused;
        const QString info = t->status == TrialStatus::Error ? t->errorMessage
                             : waits                         ? t->pendingReason
                                                             : QString();
        row << info.section('\n', 0, 0).left(60);
        lines << row.join(' ');
        ++shown;
    }
    return lines;
}

void ProgressReporter::trialStatusChanged(const Trial& trial, const QString& reason) {
    if (style_ != Style::Lines) {
        return;
    }
    QString line = QStringLiteral("%1 %2 iter=%3")
                       .arg(trial.id, trialStatusName(trial.status))
                       .arg(trial.iteration);
    const QString metric = metricText(trial);
    if (!metric.isEmpty()) {
        line += QStringLiteral(" %1=%2").arg(spec_.metric, metric);
    }
    if (!reason.isEmpty()) {
        line += QStringLiteral(" (%1)").arg(reason);
    }
    std::fprintf(out_, "%s\n", qPrintable(line));
    std::fflush(out_);
}

void ProgressReporter::update(const ProgressSnapshot& snapshot, bool force) {
    if (style_ == Style::Quiet) {
        return;
    }
    const qint64 interval = style_ == Style::Table ? kTableRefreshMs : kLinesRefreshMs;
    if (!force && sinceDraw_.isValid() && sinceDraw_.elapsed() < interval) {
        return;
    }
    sinceDraw_.start();
    if (style_ == Style::Lines) {
        QString line = statusLine(snapshot);
        if (spec_.objectives.size() > 1) {
            line += QStringLiteral(" | Pareto front %1").arg(frontText(snapshot));
        } else if (snapshot.bestValue) {
            line += QStringLiteral(" | best %1=%2 (%3)")
                        .arg(spec_.metric, formatNumber(*snapshot.bestValue), snapshot.bestTrialId);
        }
        std::fprintf(out_, "%s\n", qPrintable(line));
        for (const QString& card : cardLines(snapshot)) {
            std::fprintf(out_, "  %s\n", qPrintable(card));
        }
        std::fflush(out_);
        return;
    }
    const QStringList lines = renderTable(snapshot, kMaxTableRows);
    if (linesDrawn_ > 0) {
        std::fprintf(out_, "\x1b[%dF\x1b[J", linesDrawn_);  // back to the table's first line
    }
    for (const QString& line : lines) {
        std::fprintf(out_, "%s\n", qPrintable(line));
    }
    std::fflush(out_);
    linesDrawn_ = int(lines.size());
}

void ProgressReporter::warning(const QString& message) {
    if (style_ == Style::Table && linesDrawn_ > 0) {
        // The table is drawn again below the warning, so the warning stays on the screen.
        std::fprintf(out_, "\x1b[%dF\x1b[J", linesDrawn_);
        std::fflush(out_);
        linesDrawn_ = 0;
    }
    std::fprintf(stderr, "warning: %s\n", qPrintable(message));
    std::fflush(stderr);
}

void ProgressReporter::notice(const QString& message) {
    if (style_ == Style::Quiet) {
        return;
    }
    if (style_ == Style::Table && linesDrawn_ > 0) {
        std::fprintf(out_, "\x1b[%dF\x1b[J", linesDrawn_);
        linesDrawn_ = 0;
    }
    std::fprintf(out_, "%s\n", qPrintable(message));
    std::fflush(out_);
}

void ProgressReporter::finish(const ProgressSnapshot& snapshot, const QString& outcome) {
    if (style_ == Style::Table) {
        update(snapshot, true);
    } else if (style_ == Style::Lines) {
        for (const QString& line : renderTable(snapshot, 1000)) {
            std::fprintf(out_, "%s\n", qPrintable(line));
        }
    }
    for (const Trial* t : snapshot.trials) {
        if (t->status == TrialStatus::Error) {
            std::fprintf(out_, "\nTrial %s failed: %s\n", qPrintable(t->id),
                         qPrintable(t->errorMessage));
        }
    }
    std::fprintf(out_, "%s\n", qPrintable(outcome));
    if (snapshot.checkpointsNotKept > 0) {
        std::fprintf(out_, "%s could not be kept; the warnings above say why\n",
                     qPrintable(counted(snapshot.checkpointsNotKept, "checkpoint")));
    }
    if (spec_.objectives.size() > 1) {
        std::fprintf(out_, "Pareto front (%s): %s; print it with: tunedeck-engine best %s\n",
                     qPrintable(objectivesText()), qPrintable(frontText(snapshot)),
                     qPrintable(experimentDir_));
    } else if (snapshot.bestValue) {
        std::fprintf(out_, "Best trial %s: %s=%s\n", qPrintable(snapshot.bestTrialId),
                     qPrintable(spec_.metric), qPrintable(formatNumber(*snapshot.bestValue)));
    }
    std::fprintf(out_, "Results: %s\n", qPrintable(experimentDir_));
    std::fflush(out_);
}

}  // namespace tunedeck
