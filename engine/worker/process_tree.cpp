#include "worker/process_tree.h"

#include "worker/proc_files.h"
#include "worker/tuning.h"

namespace tunedeck::worker {

pid_t trialRootOf(pid_t pid, const std::function<bool(pid_t)>& isTrialRoot) {
    for (int depth = 0; depth < kProcessTreeMaxDepth && pid > 1; ++depth) {
        if (isTrialRoot(pid)) {
            return pid;
        }
        ProcStat lineage;
        if (!readProcStat(pid, &lineage)) {
            return -1;  // gone, or in another pid namespace (a container's driver view)
        }
        if (lineage.group > 1 && isTrialRoot(lineage.group)) {
            return lineage.group;
        }
        pid = lineage.parent;
    }
    return -1;
}

}  // namespace tunedeck::worker
