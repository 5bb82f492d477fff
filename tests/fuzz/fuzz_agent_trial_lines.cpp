// libFuzzer target: a trial's channel as the node agent frames, checks and relays it. The checks
// are in fuzz_inputs.cpp (agentTrialLines), shared with the replay of the regression corpus
// (tst_fuzz_corpus).
#include <cstddef>
#include <cstdint>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tunedeck::fuzz::agentTrialLines(QByteArrayView(data, qsizetype(size)));
    return 0;
}
