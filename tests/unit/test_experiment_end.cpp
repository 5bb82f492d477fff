// When a run is over and how it ended (the summary line and exit code a user sees), and which
// waiting trials restored from a checkpoint are already at their end; the line naming the code
// the run used, which the run prints at its start and `show` beside its end.
#include <QJsonArray>
#include <QTest>

#include "core/code_version_text.h"
#include "core/experiment_end.h"
#include "scheduler_builders.h"

using namespace tunedeck;

namespace {

const TrialStatus kRunning = TrialStatus::Running;
const TrialStatus kPending = TrialStatus::Pending;
const TrialStatus kDone = TrialStatus::Terminated;
const TrialStatus kError = TrialStatus::Error;

// The judge sees the trials as the run's roster counts them.
RunEnd judge(std::initializer_list<TrialStatus> statuses, bool stopping, bool searcherFinished,
             int checkpointsNotKept) {
    TrialRoster roster;
    std::int64_t index = 0;
    for (const TrialStatus status : statuses) {
        roster.set(index++, {status, false, status != kPending});
    }
    return judgeRunEnd(roster.counts(), stopping, searcherFinished, checkpointsNotKept);
}

}  // namespace

class TestExperimentEnd : public QObject {
    Q_OBJECT

  private slots:
    void aRunWithTrialsLeftIsNotOver() {
        QCOMPARE(judge({kDone, kRunning}, false, true, 0).kind, RunEnd::Kind::NotYet);
        QCOMPARE(judge({kDone, kPending}, false, true, 0).kind, RunEnd::Kind::NotYet);
    }

    void aSearcherWithMoreToGiveKeepsTheRunGoing() {
        QCOMPARE(judge({kDone, kDone}, false, false, 0).kind, RunEnd::Kind::NotYet);
    }

    void everyTrialTerminatedIsASuccess() {
        const RunEnd end = judge({kDone, kDone, kDone}, false, true, 0);
        QCOMPARE(end.kind, RunEnd::Kind::AllTerminated);
        QCOMPARE(end.summary, QStringLiteral("Finished: all 3 trials terminated."));
    }

    void erroredTrialsAreCounted() {
        const RunEnd end = judge({kDone, kError, kError}, false, true, 1);
        QCOMPARE(end.kind, RunEnd::Kind::TrialsErrored);
        QCOMPARE(end.summary, QStringLiteral("Finished with 2 errored trials."));
    }

    void checkpointsNotKeptMakeTheRunAnError() {
        const RunEnd end = judge({kDone, kDone}, false, true, 2);
        QCOMPARE(end.kind, RunEnd::Kind::CheckpointsLost);
        QCOMPARE(end.summary, QStringLiteral("Finished: all 2 trials terminated, but 2 "
                                             "checkpoints were not kept."));
        QCOMPARE(judge({kDone, kDone}, false, true, 1).summary,
                 QStringLiteral("Finished: all 2 trials terminated, but 1 checkpoint was not "
                                "kept."));
    }

    // A stopping run (Ctrl-C, fail_fast) ends once nothing runs; waiting trials stay resumable.
    void aStoppingRunEndsOnceNothingRuns() {
        QCOMPARE(judge({kPending, kRunning}, true, false, 0).kind, RunEnd::Kind::NotYet);
        QCOMPARE(judge({kPending, kDone}, true, false, 0).kind, RunEnd::Kind::Stopped);
    }

    void aCheckpointThatMeetsAStopCriterionIsTheEnd() {
        StopCriteria stop;
        stop.trainingIteration = 10;
        const auto scheduler = makeValidated(schedulerSpec("fifo", {}, "loss", MetricMode::Min));
        QVERIFY(scheduler);
        QVERIFY(!endReachedAtCheckpoint(stop, *scheduler, {{"training_iteration", 9}}));
        QVERIFY(endReachedAtCheckpoint(stop, *scheduler, {{"training_iteration", 10}}));
        QVERIFY(endReachedAtCheckpoint(stop, *scheduler, {{"done", true}}));
    }

    void aCheckpointAtAshasMaxTIsTheEnd() {
        const auto asha = makeValidated(
            schedulerSpec("asha", {{"max_t", 8}, {"grace_period", 1}}, "loss", MetricMode::Min));
        QVERIFY(asha);
        QVERIFY(!endReachedAtCheckpoint({}, *asha, {{"training_iteration", 7}}));
        QVERIFY(endReachedAtCheckpoint({}, *asha, {{"training_iteration", 8}}));
    }

    // "1 files" was seen in the window's folder bar: one is singular, in every count of the line.
    void theCodeLineCountsOneInTheSingular() {
        const auto files = [](int n) {
            return codeVersionText(
                {{"kind", "files"}, {"content_hash", "sha256:0f3e"}, {"files", n}});
        };
        QCOMPARE(files(1), QStringLiteral("files sha256:0f3e (1 file, not a git repository)"));
        QCOMPARE(files(3), QStringLiteral("files sha256:0f3e (3 files, not a git repository)"));
        const auto dirty = [](int bytes, int untracked, int skipped) {
            QJsonArray kept;
            QJsonArray tooLarge;
            for (int i = 0; i < untracked; ++i) {
                kept.append(QStringLiteral("extra%1.py").arg(i));
            }
            for (int i = 0; i < skipped; ++i) {
                tooLarge.append(QStringLiteral("data%1.bin").arg(i));
            }
            return codeVersionText({{"kind", "git"},
                                    {"commit", "1a2b3c4d5e6f7a8b"},
                                    {"branch", "main"},
                                    {"dirty", true},
                                    {"diff_bytes", bytes},
                                    {"untracked", kept},
                                    {"untracked_skipped", tooLarge}});
        };
        QCOMPARE(dirty(1, 1, 1), QStringLiteral("git 1a2b3c4d5e6f on main, dirty (diff 1 byte, 1 "
                                                "untracked file kept, 1 too large, not kept)"));
        QCOMPARE(dirty(2154, 2, 3), QStringLiteral("git 1a2b3c4d5e6f on main, dirty (diff 2154 "
                                                   "bytes, 2 untracked files kept, 3 too large, "
                                                   "not kept)"));
    }
};

QTEST_APPLESS_MAIN(TestExperimentEnd)
#include "test_experiment_end.moc"
