// The model searchers (Bayesian optimisation, PB2, BOHB, CMA-ES) allocate and free matrices of
// a few hundred KB to a few MB on every suggestion. With glibc's defaults each free at the top
// of the heap hands the memory back to the system (brk) and the next fit takes it again, page
// by page: in the simulation that was 80% of the run's time, spent in the kernel flushing page
// tables. Processes that run searchers call this once at start: freed memory up to 128 MB stays
// in the process for the next fit, and blocks up to 32 MB come from the heap, not from mmap.
#pragma once

namespace tunedeck {

void keepFreedMemoryForReuse();

}  // namespace tunedeck
