// A small result type for operations that can fail (LevelDB's Status, kept as small).
// Value type; safe to copy between threads.
#pragma once

#include <QString>
#include <utility>

namespace tunedeck {

class Status {
  public:
    enum class Code {
        Ok,
        InvalidArgument,  // the input is wrong; retrying will not help
        NotFound,
        IoError,     // the operating system refused; may succeed later
        Busy,        // someone else holds the resource; retry later
        Corruption,  // stored data is unreadable; give up
    };

    Status() = default;
    static Status ok() { return {}; }
    static Status invalid(QString message) { return {Code::InvalidArgument, std::move(message)}; }
    static Status notFound(QString message) { return {Code::NotFound, std::move(message)}; }
    static Status ioError(QString message) { return {Code::IoError, std::move(message)}; }
    static Status busy(QString message) { return {Code::Busy, std::move(message)}; }
    static Status corruption(QString message) { return {Code::Corruption, std::move(message)}; }

    bool isOk() const { return code_ == Code::Ok; }
    explicit operator bool() const { return isOk(); }
    Code code() const { return code_; }
    const QString& message() const { return message_; }

  private:
    Status(Code code, QString message) : code_(code), message_(std::move(message)) {}
    Code code_ = Code::Ok;
    QString message_;
};

}  // namespace tunedeck
