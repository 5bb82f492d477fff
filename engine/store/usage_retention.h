// How node usage samples age in the history. Every sample of the last 10 minutes is kept (what a
// live chart zooms into); older ones are thinned to one per node per 30 s, and those older than
// 6 hours to one per node per 5 minutes. A week-long run at the default 2 s step thus keeps about
// 3,000 rows per node instead of 300,000, and a subscriber replaying the history from the start
// is not swamped. The first sample of each step is the one kept, so a kept row is a real sample,
// never an average that no card showed. Compile-time constants; thread-safe.
#pragma once

namespace tunedeck::store {

struct UsageTier {
    double olderThanS;  // samples at least this old...
    double stepS;       // ...keep one per node per step (steps aligned on Unix time)
};

inline constexpr UsageTier kUsageTiers[] = {
    {600, 30},
    {6 * 3600, 300},
};

// How often the thinning runs (in sample time): often enough that a table never holds more than
// a step's worth of surplus rows, rarely enough that its cost is nothing beside the writes.
inline constexpr double kUsageThinEveryS = 30;

}  // namespace tunedeck::store
