// libFuzzer target: an agent's stream as the engine frames and parses it. The checks are in
// fuzz_inputs.cpp (engineAgentLines), shared with the replay of the regression corpus
// (tst_fuzz_corpus).
#include <cstddef>
#include <cstdint>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tunedeck::fuzz::engineAgentLines(QByteArrayView(data, qsizetype(size)));
    return 0;
}
