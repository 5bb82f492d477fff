#include "models/experiment_budget.h"

#include <QCoreApplication>
#include <QDir>
#include <algorithm>
#include <climits>
#include <cmath>

#include "config/experiment_loader.h"
#include "core/searcher.h"
#include "core/trial_runtime.h"

namespace tunedeck::app {

ExperimentBudget budgetOfSpec(const QString& specText, const QString& folder) {
    ExperimentBudget budget;
    if (specText.isEmpty()) {
        return budget;
    }
    const LoadResult<ExperimentSpec> loaded =
        loadExperimentText(specText, QDir(folder).filePath(QStringLiteral("experiment.yaml")));
    if (!loaded) {
        return budget;
    }
    budget.seconds = loaded.spec->timeBudgetS;
    budget.numSamples = loaded.spec->numSamples;
    budget.maxConcurrentTrials = loaded.spec->maxConcurrentTrials;
    if (const std::unique_ptr<Searcher> searcher = makeSearcher(*loaded.spec)) {
        budget.trials = searcher->totalTrials();
    }
    return budget;
}

void applyLimits(const events::LimitsEvent& limits, ExperimentBudget* budget) {
    if (limits.trials) {
        budget->trials = *limits.trials;
    }
    if (limits.numSamples) {
        budget->numSamples = int(*limits.numSamples);
    }
    if (limits.maxConcurrentTrials) {
        budget->maxConcurrentTrials = int(*limits.maxConcurrentTrials);
    }
}

ProgressShown progressOf(const ExperimentBudget& budget, int done, int created, double elapsed,
                         bool ended) {
    ProgressShown shown;
    if (budget.trials) {
        shown.maximum =
            int(std::clamp<qint64>(std::max<qint64>(*budget.trials, created), 1, qint64(INT_MAX)));
        shown.value = std::min(done, shown.maximum);
        shown.text = QCoreApplication::translate("tunedeck::app::Progress", "%1 of %2 trials ended")
                         .arg(done)
                         .arg(shown.maximum);
    } else if (budget.seconds) {
        shown.maximum = std::max(1, int(std::ceil(*budget.seconds)));
        const double used = ended ? *budget.seconds : std::clamp(elapsed, 0.0, *budget.seconds);
        shown.value = ended ? shown.maximum : int(used);
        shown.text = QCoreApplication::translate("tunedeck::app::Progress",
                                                 "%1 of %2 time budget, %3 trials ended")
                         .arg(runtimeText(used), runtimeText(*budget.seconds))
                         .arg(done);
    } else {
        shown.value = ended ? 1 : 0;
        shown.text =
            QCoreApplication::translate("tunedeck::app::Progress", "%1 trials ended").arg(done);
    }
    return shown;
}

}  // namespace tunedeck::app
