#include "session/latest_read.h"

#include <QThread>

namespace tunedeck::app {

void LatestRead::start(QObject* context, std::function<void()> work, std::function<void()> done) {
    const int generation = ++generation_;
    underWay_ = generation;
    QThread* reader = QThread::create(std::move(work));
    QObject::connect(reader, &QThread::finished, context,
                     [this, generation, done = std::move(done)] {
                         if (generation != generation_) {
                             return;  // something newer was opened or picked meanwhile
                         }
                         underWay_ = -1;
                         done();
                     });
    // A context gone before the read ends: the thread still ends, and deletes itself.
    QObject::connect(reader, &QThread::finished, reader, &QObject::deleteLater);
    reader->start();
}

}  // namespace tunedeck::app
