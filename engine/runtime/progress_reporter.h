// The live view of a run on the terminal, like Ray Tune's CLIReporter: status counts, one row per
// trial (config, iteration, metric), the best so far. On a terminal the table is redrawn in place
// at most twice a second; otherwise (a log file, CI) it prints a line per trial status change and
// a summary every 10 s. Not thread-safe: called from the runtime's event loop.
#pragma once

#include <QElapsedTimer>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <cstdio>
#include <optional>
#include <vector>

#include "core/experiment_spec.h"
#include "core/trial.h"
#include "node_protocol/node_protocol.h"

namespace tunedeck {

// A node's latest usage sample, as its agent sent it (gang ranks named by their trial).
struct NodeUsageSample {
    QString node;
    node::Usage usage;
};

struct ProgressSnapshot {
    std::vector<const Trial*> trials;  // creation order
    QString bestTrialId;               // by the first objective
    std::optional<double> bestValue;
    // With several objectives: the trials no other trial beats on every one (latest results),
    // in creation order.
    QStringList paretoFront;
    std::int64_t totalResults = 0;
    double cpuUsed = 0, cpuTotal = 0;
    double gpuUsed = 0, gpuTotal = 0;
    std::optional<std::int64_t> totalTrials;  // when the searcher knows its budget
    // Each node's latest usage sample, in node order: the cards' lines.
    std::vector<NodeUsageSample> nodeUsage;
    int checkpointsNotKept = 0;  // handed over or saved, but lost (full disk, refused folder)
};

class ProgressReporter {
  public:
    enum class Style { Table, Lines, Quiet };

    ProgressReporter(const ExperimentSpec& spec, QString experimentDir, Style style,
                     std::FILE* out = stdout);
    static Style styleFor(std::FILE* out, bool quiet);

    // A trial changed status (Lines style prints it at once).
    void trialStatusChanged(const Trial& trial, const QString& reason);
    // Called often; draws only when the refresh interval has passed (or `force`).
    void update(const ProgressSnapshot& snapshot, bool force = false);
    // Something the user must see now, in every style (on stderr, above the live table).
    void warning(const QString& message);
    // A line of what the engine did (the autoscaler's decisions), above the live table; not in
    // the quiet style.
    void notice(const QString& message);
    // The closing summary, printed in every style.
    void finish(const ProgressSnapshot& snapshot, const QString& outcome);

    // The table as text (exposed for tests).
    QStringList renderTable(const ProgressSnapshot& snapshot, int maxRows) const;

  private:
    QString statusLine(const ProgressSnapshot& snapshot) const;
    QString metricText(const Trial& trial) const;
    QString objectivesText() const;                             // "loss min, latency_ms min"
    QString frontText(const ProgressSnapshot& snapshot) const;  // "2 trials: t00001, t00004"
    // One line per GPU of the latest samples: "GPU local/0 NVIDIA H200: 87% busy | ...".
    QStringList cardLines(const ProgressSnapshot& snapshot) const;

    const ExperimentSpec& spec_;
    QString experimentDir_;
    Style style_;
    std::FILE* out_;
    QElapsedTimer sinceStart_;
    QElapsedTimer sinceDraw_;
    int linesDrawn_ = 0;
    QStringList configColumns_;
};

}  // namespace tunedeck
