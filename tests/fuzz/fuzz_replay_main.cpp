// tunedeck_fuzz_replay TARGET FILE: feeds FILE to the fuzz target TARGET's entry point, in a
// process of its own so that tst_fuzz_corpus sees a crash, a hang or a memory blow-up as what it
// is. Prints "accepted", or "refused" and the message the user would see; exits 0 either way.
// A broken promise of the entry point aborts the process.
#include <sys/resource.h>

#include <QFile>
#include <cstdio>
#include <cstring>

#include "fuzz_inputs.h"

namespace {

// Far above what any corpus file needs; a runaway parse fails here instead of taking the machine.
[[maybe_unused]] constexpr rlim_t kAddressSpaceBytes = rlim_t{4} << 30;

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: tunedeck_fuzz_replay TARGET FILE\n");
        return 2;
    }
    // Not under AddressSanitizer (scripts/sanitize): it reserves terabytes of address space up
    // front, and bounds the memory it hands out itself.
#if !defined(__SANITIZE_ADDRESS__)
    const rlimit limit{kAddressSpaceBytes, kAddressSpaceBytes};
    ::setrlimit(RLIMIT_AS, &limit);
#endif
    QFile file(QString::fromLocal8Bit(argv[2]));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", argv[2]);
        return 2;
    }
    const QByteArray bytes = file.readAll();
    for (const tunedeck::fuzz::Target& target : tunedeck::fuzz::targets()) {
        if (std::strcmp(target.name, argv[1]) == 0) {
            const tunedeck::fuzz::Verdict verdict = target.run(bytes);
            std::printf("%s\n%s\n", verdict.accepted ? "accepted" : "refused",
                        verdict.message.toUtf8().constData());
            return 0;
        }
    }
    std::fprintf(stderr, "no fuzz target named %s\n", argv[1]);
    return 2;
}
