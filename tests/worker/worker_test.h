// Tests of tunedeck-worker as the engine sees it: the real binary, spoken to over its node link,
// running real trial processes (shell scripts, Python with the SDK, C++ with the SDK).
// Each test owns a fresh worker and a fresh temporary folder; run from one thread.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

class WorkerSession;

class WorkerTest : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void init();

    // worker_test.cpp: the agent itself
    void versionAndHelpFlags();
    void helloReportsTheNodeInventory();
    void heartbeatArrivesEverySecond();
    void malformedOpsAreReportedAndServiceContinues();

    // test_trials.cpp: trials and the SDKs through the worker
    void reportsAreRelayedAndAnswered();
    void functionStyleSavesAndRestores();
    void classStylePausesAndResumes();
    void saveWithoutSaveFunctionIsDeclined();
    void cppTrialRunsThroughTheWorker();
    void cppTrialAsksForAParameterDefineByRun();
    void scriptsRunStandaloneWithoutTheEngine();

    // test_failures.cpp: trials that fail, and stopping them
    void missingCommandExitsWith127();
    void badWorkingDirectoryExitsWith127();
    void garbageOnTheChannelFailsTheTrial();
    void lineThatIsNotAnObjectFailsTheTrial();
    void lineTheEngineCannotReadFailsTheTrialAtOnce();
    void hugeLineFailsTheTrialWithoutGrowingTheWorker();
    void killEscalatesToSigkillForAHungTrial();
    void killTerminatesACooperativeTrialAtOnce();
    void leftoverProcessesOfATrialAreKilled();
    void daemonsATrialLeftAreEndedWithIt();
    void closingStdinEndsTheDaemonsOfRunningTrials();
    void aDaemonThatClearedItsEnvironmentEndsWithItsTrial();
    void whatAKilledAgentLeftIsEndedByTheNext();
    void closingStdinStopsEveryTrial();
    void shutdownReportsEveryExitThenExits();

    // test_checkpoints.cpp: commit_checkpoint and delete_checkpoint
    void commitMovesTheFolderWithItsManifest();
    void commitCopiesAcrossFileSystems();
    void commitSyncsEveryFileBeforeTheRename();
    void commitFailureIsReportedAndTheWorkerCarriesOn();
    void deleteRefusesAFolderThatIsNoCheckpoint();
    void anOwnersCheckpointWorkCannotGoThroughALinkTheTrialPlanted();

    // test_gpus.cpp: GPUs through a fake NVML driver (fake_nvml/)
    void gpuInventoryComesFromTheDriver();
    void inventoryFlagPrintsTheHelloAndExits();
    void cudaVisibleDevicesRestrictsTheOfferedGpus();
    void missingDriverOffersNoGpusAndTheAgentStillWorks();
    void driverThatCannotStartOffersNoGpus();
    void usageIsSampledOnlyWhileAsked();
    void usageSamplesNameTheTrialsOnEachCard();
    void legacyDriverStillNamesTheTrials();
    void lostGpuIsReportedOnceAndTheOthersAreStillSampled();
    void gpuThatLeavesTheDriversListIsLost();
    void malformedMonitorOpIsAnError();

    // test_mps.cpp: sharing a card through NVIDIA's MPS (gpu_sharing)
    void mpsDaemonServesTheGpuTrialsAndStopsWithTheAgent();
    void mpsThatCannotStartLeavesTheTrialsTimeSlicing();
    void anOrphanedMpsDaemonIsStoppedByTheNextAgent();

    // test_report_windows.cpp: reports sent ahead of their answers (both SDKs)
    void reportWindowHoldsAndALateStopEndsTheTrial();
    void reportWindowNeedsTheEnginesGrant();
    void pauseForAnIterationTheTrialPassedIsDeclined();

    // test_throughput.cpp
    void relayKeepsUpWithReportFloods();
    void reportRoundTripsAcrossConcurrentTrials();

  private:
    QString path(const QString& relative) const;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_python;
};

namespace worker_test {

QString trialScript(const QString& name);
QString cppTrialPath();
QString floodTrialPath();

QJsonObject startOp(const QString& trial, const QStringList& argv, const QString& trialDir,
                    const QJsonObject& env = {}, const QString& cwd = {});
// A trial running tests/worker/trials/<script> with the Python SDK on PYTHONPATH.
QJsonObject pythonStartOp(const QString& python, const QString& trial, const QString& script,
                          const QJsonObject& config, const QString& trialDir,
                          const QString& restore = {}, qint64 iteration = 0);
QJsonObject trialEnv(const QString& trial, const QJsonObject& config, const QString& trialDir,
                     const QString& restore = {}, qint64 iteration = 0);
QJsonObject answerOp(const QString& trial, const QString& action, const QString& path = {});
QJsonObject commitOp(const QString& trial, const QString& from, const QString& to,
                     const QJsonObject& manifest);
// The same for a folder the trial named in a report: moved when inside `trialDir`, else copied.
QJsonObject handoverOp(const QString& trial, const QString& from, const QString& to,
                       const QJsonObject& manifest, const QString& trialDir);

// Whether the process is gone (or a zombie nobody reaped yet: it runs no more).
bool processGone(qint64 pid);
// The peak resident memory of a process, in KiB (VmHWM of /proc/PID/status).
qint64 peakMemoryKb(qint64 pid);
QString readFile(const QString& path);
QString joinedTail(const QJsonObject& exited);

}  // namespace worker_test
