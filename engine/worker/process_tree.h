// Which of the agent's trials a process belongs to, found through /proc: the process itself, its
// process group (a trial leads its own), then its parents in turn, so a data-loader worker or a
// launcher's child that a driver reports is counted for the trial that started it.
// Reads /proc only; safe from any thread.
#pragma once

#include <sys/types.h>

#include <functional>

namespace tunedeck::worker {

// The root pid (also the process group id) of the trial holding `pid`, as accepted by
// `isTrialRoot`, or -1 when no trial of this agent holds it.
pid_t trialRootOf(pid_t pid, const std::function<bool(pid_t)>& isTrialRoot);

}  // namespace tunedeck::worker
