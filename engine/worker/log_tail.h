// Reads the end of a trial's log for the `exited` event without reading the whole file (a log
// can be gigabytes). Pure function over the file system: safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tunedeck::worker {

// The last `maxLines` lines of the file at `path`, oldest first and without their line ends,
// looking at no more than its last `maxBytes` bytes. Empty when the file is missing or empty.
std::vector<std::string> readLogTail(const std::string& path, int maxLines, std::size_t maxBytes);

}  // namespace tunedeck::worker
