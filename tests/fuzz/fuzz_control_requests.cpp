// libFuzzer target: a control-API connection as serve frames and parses its requests. The checks
// are in fuzz_inputs.cpp (controlRequests), shared with the replay of the regression corpus
// (tst_fuzz_corpus).
#include <cstddef>
#include <cstdint>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tunedeck::fuzz::controlRequests(QByteArrayView(data, qsizetype(size)));
    return 0;
}
