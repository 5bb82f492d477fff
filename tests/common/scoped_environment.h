// Sets environment variables for a scope (an engine started in it, its agent and its trials
// inherit them), and puts back what was there when the scope ends. Header-only; not
// thread-safe (the process environment is shared).
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <utility>

class ScopedEnvironment {
  public:
    explicit ScopedEnvironment(const QList<std::pair<const char*, QString>>& values) {
        for (const auto& [name, value] : values) {
            saved_.append({name, qgetenv(name), qEnvironmentVariableIsSet(name)});
            qputenv(name, value.toUtf8());
        }
    }
    ~ScopedEnvironment() {
        for (const Saved& s : saved_) {
            s.wasSet ? qputenv(s.name, s.value) : qunsetenv(s.name);
        }
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

  private:
    struct Saved {
        const char* name;
        QByteArray value;
        bool wasSet;
    };
    QList<Saved> saved_;
};
