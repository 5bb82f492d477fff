// Splits a byte stream into lines, with a bound on the length of one line: the framing of every
// JSON-lines stream of the engine (worker agents, the control API, `run --control-stdin`).
// A value type; not thread-safe (one stream, one thread).
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace tunedeck {

class LineFramer {
  public:
    explicit LineFramer(qsizetype maxLine) : maxLine_(maxLine) {}

    // Appends `data` and calls `onLine(QByteArrayView)` for each complete line (without its
    // '\n'). A line longer than the bound is not delivered: `onOverlong()` is called once for
    // it and the bytes up to its end are skipped, so the stream goes on with the next line.
    template <typename OnLine, typename OnOverlong>
    void feed(QByteArrayView data, OnLine&& onLine, OnOverlong&& onOverlong) {
        buffer_.append(data);
        qsizetype start = 0;
        for (;;) {
            const qsizetype nl = buffer_.indexOf('\n', start);
            if (nl < 0) {
                break;
            }
            if (skipping_) {
                skipping_ = false;  // the end of the overlong line
            } else if (nl - start > maxLine_) {
                onOverlong();
            } else {
                onLine(QByteArrayView(buffer_).sliced(start, nl - start));
            }
            start = nl + 1;
        }
        buffer_.remove(0, start);
        if (!skipping_ && buffer_.size() > maxLine_) {
            skipping_ = true;
            onOverlong();
        }
        if (skipping_) {
            buffer_.clear();  // nothing of an overlong line is kept
        }
    }

    // Bytes of an unfinished line held so far.
    qsizetype buffered() const { return buffer_.size(); }

  private:
    qsizetype maxLine_;
    QByteArray buffer_;
    bool skipping_ = false;
};

}  // namespace tunedeck
