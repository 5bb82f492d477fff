#include "views/run_status_line.h"

#include <QDateTime>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include "models/trial_outcome.h"
#include "session/experiment_session.h"

namespace tunedeck::app {

RunStatusLine::RunStatusLine(const ExperimentSession* session, QStatusBar* bar)
    : QObject(bar),
      session_(session),
      counts_(new QLabel),
      progress_(new QProgressBar),
      connection_(new QLabel(tr("Not attached to an engine"))) {
    counts_->setObjectName(QStringLiteral("trialCounts"));
    progress_->setMinimumWidth(180);
    progress_->setMaximumWidth(240);
    connection_->setObjectName(QStringLiteral("engineConnection"));
    bar->addWidget(counts_, 1);
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(connection_);
}

void RunStatusLine::setConnection(const QString& text) {
    connection_->setText(text);
}

void RunStatusLine::update() {
    const ExperimentData& data = session_->data();
    const OutcomeCounts c = outcomeCounts(data.trials());
    const ProgressShown shown = progressOf(
        session_->budget(), c.ended(), int(data.trials().size()),
        QDateTime::currentMSecsSinceEpoch() / 1000.0 - data.runStartTime(),
        !data.experimentStatus().isEmpty() && data.experimentStatus() != QLatin1String("running"));
    progress_->setMaximum(shown.maximum);
    progress_->setValue(shown.value);
    progress_->setFormat(shown.text);
    // Every row in one count, as the table's Status column reads it: a trial stopped early or
    // by the user is not "done" (models/trial_outcome.h).
    QStringList parts{tr("%1 running").arg(c.running), tr("%1 pending").arg(c.pending),
                      tr("%1 paused").arg(c.paused), tr("%1 done").arg(c.done)};
    if (c.stoppedEarly > 0) {
        parts << tr("%1 stopped early").arg(c.stoppedEarly);
    }
    if (c.stoppedByUser > 0) {
        parts << tr("%1 stopped by the user").arg(c.stoppedByUser);
    }
    parts << tr("%1 errored").arg(c.error);
    counts_->setText(parts.join(QStringLiteral(", ")));
}

}  // namespace tunedeck::app
