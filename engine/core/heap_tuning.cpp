#include "core/heap_tuning.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tunedeck {

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, 128 * 1024 * 1024);
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
#endif
}

}  // namespace tunedeck
