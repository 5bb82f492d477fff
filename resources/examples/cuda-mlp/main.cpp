// The trainable of the CUDA example: trains the MLP on the digits data set, one epoch per
// training iteration, and reports validation accuracy and loss, training loss and samples per
// second to Tunedeck through the C++ SDK. Checkpoints hold weights and AdamW's state.
//
// Hyperparameters come from the trial's config (TUNEDECK_CONFIG: lr, batch_size, width, depth,
// weight_decay, seed); the command line can set them too, for runs by hand. See README.md.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <tunedeck/trial.hpp>

#include "checkpoint.h"
#include "cuda_backend.h"
#include "digits.h"
#include "trainer.h"

namespace {

using namespace tunedeck::mlp;

constexpr long long kEpochsByHand = 30;  // when no engine is there to stop the trial

const char* const kUsage =
    "usage: %s [--device cpu|cuda|auto] [--data FILE] [--epochs N]\n"
    "          [--lr X] [--batch-size N] [--width N] [--depth N] [--weight-decay X] [--seed N]\n"
    "\n"
    "Trains a multilayer perceptron on the digits data set, one epoch per training iteration,\n"
    "and reports val_accuracy, val_loss, train_loss and samples_per_s to Tunedeck (printed\n"
    "when run by hand). Hyperparameters come from TUNEDECK_CONFIG (lr, batch_size, width,\n"
    "depth, weight_decay, seed); options given here take precedence.\n"
    "\n"
    "  --device   cpu, cuda (fail when no GPU is usable) or auto (the GPU when one is\n"
    "             visible, else the CPU); default auto\n"
    "  --data     the digits CSV; default digits.csv in the current folder\n"
    "  --epochs   stop after N epochs in all (0: when Tunedeck says; %lld when run by hand)\n"
    "\n"
    "Exit status: 0 done or stopped, 1 training failed, 2 bad arguments or no usable GPU.\n";

struct Options {
    std::string device = "auto";
    std::string data = "digits.csv";
    long long epochs = 0;
    nlohmann::json overrides = nlohmann::json::object();
};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

double parseNumber(const std::string& option, const char* text) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (*text == '\0' || *end != '\0') {
        throw UsageError(option + ": '" + text + "' is not a number");
    }
    return value;
}

long long parseInteger(const std::string& option, const char* text) {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0') {
        throw UsageError(option + ": '" + text + "' is not a whole number");
    }
    return value;
}

// Returns false when --help was asked for.
bool parseOptions(int argc, char** argv, Options& options) {
    static const char* const kIntegerOptions[][2] = {{"--batch-size", "batch_size"},
                                                     {"--width", "width"},
                                                     {"--depth", "depth"},
                                                     {"--seed", "seed"}};
    static const char* const kNumberOptions[][2] = {{"--lr", "lr"},
                                                    {"--weight-decay", "weight_decay"}};
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--help" || option == "-h") {
            return false;
        }
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        const auto take = [&]() {
            if (!value) {
                throw UsageError(option + " needs a value");
            }
            ++i;
            return value;
        };
        bool known = true;
        if (option == "--device") {
            options.device = take();
            if (options.device != "cpu" && options.device != "cuda" && options.device != "auto") {
                throw UsageError("--device must be cpu, cuda or auto");
            }
        } else if (option == "--data") {
            options.data = take();
        } else if (option == "--epochs") {
            options.epochs = parseInteger(option, take());
        } else {
            known = false;
            for (const auto& [name, key] : kIntegerOptions) {
                if (option == name) {
                    options.overrides[key] = parseInteger(option, take());
                    known = true;
                }
            }
            for (const auto& [name, key] : kNumberOptions) {
                if (option == name) {
                    options.overrides[key] = parseNumber(option, take());
                    known = true;
                }
            }
        }
        if (!known) {
            throw UsageError("unknown argument '" + option + "'");
        }
    }
    return true;
}

// A number from the config; the engine sends integers for randint and choice of integers, but a
// float that holds a whole number (64.0) is accepted where an integer is expected.
double configNumber(const nlohmann::json& config, const char* key, double fallback) {
    const auto field = config.find(key);
    if (field == config.end()) {
        return fallback;
    }
    if (!field->is_number()) {
        throw std::invalid_argument(std::string(key) + " must be a number, the config has " +
                                    field->dump());
    }
    return field->get<double>();
}

long long configInteger(const nlohmann::json& config, const char* key, long long fallback) {
    const double value = configNumber(config, key, static_cast<double>(fallback));
    if (value != static_cast<double>(static_cast<long long>(value))) {
        throw std::invalid_argument(std::string(key) + " must be a whole number");
    }
    return static_cast<long long>(value);
}

Hyperparameters hyperparameters(nlohmann::json config, const nlohmann::json& overrides) {
    config.update(overrides);
    Hyperparameters hp;
    hp.learningRate = configNumber(config, "lr", hp.learningRate);
    hp.batchSize = static_cast<int>(configInteger(config, "batch_size", hp.batchSize));
    hp.width = static_cast<int>(configInteger(config, "width", hp.width));
    hp.depth = static_cast<int>(configInteger(config, "depth", hp.depth));
    hp.weightDecay = configNumber(config, "weight_decay", hp.weightDecay);
    hp.seed = static_cast<std::uint64_t>(configInteger(config, "seed", 0));
    checkHyperparameters(hp);
    return hp;
}

// The backend --device asks for. Returns null (after printing why) when it cannot be had.
std::unique_ptr<Backend> chooseBackend(const std::string& device, const DigitsSplit& data,
                                       const Shape& shape, int batchSize, std::string& note) {
    if (device == "cpu") {
        return makeCpuBackend(data, shape, batchSize);
    }
    const CudaProbe cuda = probeCuda();
    if (cuda.usable) {
        return makeCudaBackend(data, shape, batchSize);
    }
    if (device == "cuda") {
        std::fprintf(stderr, "cuda-mlp: --device cuda: %s\n", cuda.reason.c_str());
        return nullptr;
    }
    note = cuda.reason + "; training on the CPU";
    return makeCpuBackend(data, shape, batchSize);
}

int train(const Options& options) {
    tunedeck::Trial trial;
    const Hyperparameters hp = hyperparameters(trial.config(), options.overrides);
    const DigitsSplit data = splitDigits(readDigitsCsv(options.data));
    std::string note;
    std::unique_ptr<Backend> backend =
        chooseBackend(options.device, data, shapeFor(hp, data), hp.batchSize, note);
    if (!backend) {
        return 2;
    }
    Trainer trainer(data, hp, std::move(backend));
    if (const auto& dir = trial.restoreDir()) {
        trainer.restore(loadCheckpoint(*dir));
    }
    trial.onSave([&](const std::string& dir) { saveCheckpoint(dir, trainer.state()); });
    if (!note.empty()) {
        trial.log(note);
    }
    trial.log("training on " + trainer.device() + " from epoch " + std::to_string(trainer.epoch()));

    const long long epochs =
        options.epochs > 0 ? options.epochs : (trial.connected() ? 0 : kEpochsByHand);
    while (epochs == 0 || trainer.epoch() < epochs) {
        const EpochResult r = trainer.trainEpoch();
        const tunedeck::Action action = trial.report({
            {"val_accuracy", r.validationAccuracy},
            {"val_loss", r.validationLoss},
            {"train_loss", r.trainLoss},
            {"samples_per_s", r.samplesPerSecond},
            {"epoch_s", r.seconds},
            {"epoch", r.epoch},
            {"device", trainer.device()},
        });
        if (action != tunedeck::Action::Continue) {
            break;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        if (!parseOptions(argc, argv, options)) {
            std::printf(kUsage, argv[0], kEpochsByHand);
            return 0;
        }
    } catch (const UsageError& e) {
        std::fprintf(stderr, "cuda-mlp: %s\n", e.what());
        std::fprintf(stderr, kUsage, argv[0], kEpochsByHand);
        return 2;
    }
    try {
        return train(options);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "cuda-mlp: bad hyperparameter: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuda-mlp: %s\n", e.what());
        return 1;
    }
}
