// libFuzzer target: experiment files, as run and the control API's validate load them. The checks
// are in fuzz_inputs.cpp (experimentFile), shared with the replay of the regression corpus
// (tst_fuzz_corpus).
#include <cstddef>
#include <cstdint>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tunedeck::fuzz::experimentFile(QByteArrayView(data, qsizetype(size)));
    return 0;
}
