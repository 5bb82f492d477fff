#include "checkpoint.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tunedeck::mlp {

namespace {

// "TDMLP" and a format version; the byte-order mark refuses a file from a big-endian machine
// instead of reading garbage.
constexpr char kMagic[8] = {'T', 'D', 'M', 'L', 'P', '0', '0', '1'};
constexpr std::uint32_t kByteOrder = 0x01020304u;

template <typename V>
void put(std::ofstream& out, const V& value) {
    out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename V>
void get(std::ifstream& in, V& value, const std::string& path) {
    if (!in.read(reinterpret_cast<char*>(&value), sizeof value)) {
        throw std::runtime_error(path + ": truncated checkpoint");
    }
}

}  // namespace

void saveCheckpoint(const std::string& dir, const TrainingState& state) {
    const std::string path = dir + "/" + kCheckpointFile;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        throw std::runtime_error(path + ": cannot write the checkpoint");
    }
    out.write(kMagic, sizeof kMagic);
    put(out, kByteOrder);
    for (const std::int32_t v :
         {state.shape.inputs, state.shape.width, state.shape.depth, state.shape.classes}) {
        put(out, v);
    }
    put(out, static_cast<std::int64_t>(state.epoch));
    put(out, static_cast<std::int64_t>(state.step));
    put(out, static_cast<std::uint64_t>(state.parameters.size()));
    for (const auto* values : {&state.parameters, &state.firstMoment, &state.secondMoment}) {
        out.write(reinterpret_cast<const char*>(values->data()),
                  static_cast<std::streamsize>(values->size() * sizeof(float)));
    }
    out.flush();
    if (!out) {
        throw std::runtime_error(path + ": writing the checkpoint failed");
    }
}

TrainingState loadCheckpoint(const std::string& dir) {
    const std::string path = dir + "/" + kCheckpointFile;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error(path + ": no checkpoint of this example here");
    }
    char magic[sizeof kMagic];
    std::uint32_t byteOrder = 0;
    if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
        throw std::runtime_error(path + ": not a checkpoint of the MLP example");
    }
    get(in, byteOrder, path);
    if (byteOrder != kByteOrder) {
        throw std::runtime_error(path + ": written on a machine of another byte order");
    }
    TrainingState state;
    std::int32_t shape[4];
    for (std::int32_t& v : shape) {
        get(in, v, path);
    }
    state.shape = {shape[0], shape[1], shape[2], shape[3]};
    std::int64_t epoch = 0, step = 0;
    std::uint64_t count = 0;
    get(in, epoch, path);
    get(in, step, path);
    get(in, count, path);
    state.epoch = epoch;
    state.step = step;
    if (state.shape.inputs <= 0 || state.shape.width <= 0 || state.shape.depth < 0 ||
        state.shape.classes <= 0 || count != state.shape.parameterCount()) {
        throw std::runtime_error(path + ": the checkpoint's shape is inconsistent");
    }
    for (auto* values : {&state.parameters, &state.firstMoment, &state.secondMoment}) {
        values->resize(count);
        if (!in.read(reinterpret_cast<char*>(values->data()),
                     static_cast<std::streamsize>(count * sizeof(float)))) {
            throw std::runtime_error(path + ": truncated checkpoint");
        }
    }
    return state;
}

}  // namespace tunedeck::mlp
