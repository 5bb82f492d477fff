// Writes N report lines on the trial channel as fast as it can, without waiting for answers,
// then `done`: measures how fast the worker relays.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    const long count = argc > 1 ? std::atol(argv[1]) : 100000;
    const char* channel = std::getenv("TUNEDECK_CHANNEL");
    int readFd = -1;
    int writeFd = -1;
    if (!channel || std::sscanf(channel, "%d,%d", &readFd, &writeFd) != 2) {
        return 2;
    }
    std::string batch;
    char line[128];
    for (long i = 1; i <= count; ++i) {
        const int n = std::snprintf(
            line, sizeof line,
            "{\"type\":\"report\",\"metrics\":{\"step\":%ld,\"loss\":%.6f,\"acc\":0.5}}\n", i,
            1.0 / static_cast<double>(i));
        batch.append(line, static_cast<std::size_t>(n));
        if (batch.size() > 60000 || i == count) {
            std::size_t done = 0;
            while (done < batch.size()) {
                const ssize_t w = ::write(writeFd, batch.data() + done, batch.size() - done);
                if (w <= 0) {
                    return 1;
                }
                done += static_cast<std::size_t>(w);
            }
            batch.clear();
        }
    }
    const char doneLine[] = "{\"type\":\"done\"}\n";
    return ::write(writeFd, doneLine, sizeof doneLine - 1) > 0 ? 0 : 1;
}
