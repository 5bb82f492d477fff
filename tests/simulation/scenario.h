// One seeded scenario of the deterministic simulation: an experiment file as a user writes it
// (searcher, scheduler, checkpoint settings, failure policy, limits, stop rules), the nodes it
// runs on, how its trials behave (fast or slow, crashing, hanging, ignoring stop, saving on
// request, checkpointing only through their reports, never checkpointing, writing bad lines),
// and the faults the world injects (a node lost, the engine killed and resumed, a disk full).
// The same seed always gives the same scenario.
#pragma once

#include <QString>
#include <cstdint>

namespace tunedeck::sim {

// How a trial's process behaves, drawn per trial (the same for every attempt of it, so that a
// resumed run meets the same trials).
struct TrialBehaviour {
    enum class Saves { OnRequest, ThroughReports, Never };
    int epochs = 10;     // iterations it reports before it ends on its own
    double stepS = 0.5;  // time between reports
    Saves saves = Saves::OnRequest;
    int reportCheckpointEvery = 0;  // ThroughReports: every N iterations, starting at the first
    int crashAt = 0;                // its first attempt exits 1 at this iteration (0: never)
    int hangAt = 0;                 // its first attempt goes silent here (0: never)
    bool ignoresStop = false;       // told to stop (or SIGTERM), it keeps running
    int badLineAt = 0;              // its first attempt writes a line of unknown type here
    double quality = 0;             // how good its config is, in [0, 1)
};

struct Scenario {
    std::uint64_t seed = 0;
    QString yaml;     // the experiment file
    QString summary;  // one line: what the scenario mixes
    int nodes = 1;
    int slotsPerNode = 2;
    bool minimize = false;
    QString metric;
    // Faults of the world, each at a virtual time (seconds; 0: none).
    double nodeLossAt = 0;
    double nodeBackAfterS = 30;
    double engineCrashAt = 0;
    double diskFullProbability = 0;  // per checkpoint commit
    double slowSaveS = 0.05;         // time a save takes
    // Whether the run must reach the same end resumed as uninterrupted (FIFO, no trial faults).
    bool comparableResume = false;
    int stopIteration = 0;  // stop: {training_iteration: N}; 0: none
    int maxT = 0;           // the scheduler's max_t (asha, hyperband); 0: none
    double stopGraceS = 600;
    bool trialFaults = true;  // crash, hang, bad lines, ignoring stop
    // Trials ask for a parameter as they start (define-by-run, Optuna's trial.suggest_*): the
    // searchers that answer such requests (random, tpe).
    bool asksParameters = false;
};

Scenario makeScenario(std::uint64_t seed);
// Every trial's behaviour, from the scenario's seed and the trial's index.
TrialBehaviour behaviourOf(const Scenario& scenario, std::int64_t trialIndex);

}  // namespace tunedeck::sim
