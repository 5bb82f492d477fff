// Tests of engine/store on real SQLite files in temporary folders. The slots are implemented in
// one file per theme: records, queries, schema, exploits, node usage, failures.
#pragma once

#include <QObject>

class StoreTest : public QObject {
    Q_OBJECT

  private slots:
    // store_records_test.cpp
    void experimentRoundTrips();
    void trialsRoundTripAndUpdateInPlace();
    void resultsAndEventsShareOneIncreasingSeq();
    void seqContinuesAfterReopen();
    void seqIsNotReusedAfterDeletingTheNewestResults();
    void checkpointsRoundTrip();
    void flushMakesWritesVisibleToAReadOnlyStore();
    void writesAreCommittedWithoutAFlush();
    void deleteResultsAfterIsOrderedWithOtherWrites();
    void resultOfAnUnsavedTrialIsRefused();
    void readOnlyStoreDropsWrites();
    void jsonColumnsReadBackAsWritten();

    // store_queries_test.cpp

    // store_schema_test.cpp
    void newFileGetsTheCurrentSchemaInWalMode();
    void reopeningKeepsEverything();
    void newerSchemaIsRefusedAndLeftUntouched();
    void migrationsRunStepByStep();
    void failedMigrationStepLeavesThePreviousVersion();
    void garbageFileIsReportedAsCorrupt();
    void readOnlyOpenOfMissingFileIsNotFound();
    void openInAMissingFolderIsAnIoError();
    void readOnlyOpenWorksInAReadOnlyFolder();
    void readOnlyFolderWithUncheckpointedWalShowsAllCommits();

    // store_exploits_test.cpp
    void exploitsRoundTripInIdOrder();
    void exploitNamingAnUnsavedTrialIsRefused_data();
    void exploitNamingAnUnsavedTrialIsRefused();
    void version1HistoryReadsWithoutExploits();
    void version1HistoryIsUpgradedWhenOpenedForWriting();

    // store_usage_test.cpp
    void nodeUsageSharesTheSequenceAndReplaysInOrder();
    void oldNodeUsageIsThinnedAsItAges();
    void version2HistoryReadsWithoutNodeUsage();

    // store_failures_test.cpp
    void fileSizeLimitGivesStickyErrorAndKeepsCommittedData();
    void fullDiskGivesStickyErrorAndKeepsCommittedData();
    void killedWriterLeavesAConsistentPrefix();
    void throughput();
};
