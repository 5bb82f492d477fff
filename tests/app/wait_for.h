// Waiting in the app's tests and tools: runs the event loop until a condition holds or time is up,
// so the window, the client and the engine's answers all move meanwhile.
#pragma once

#include <QElapsedTimer>
#include <QTest>

template <typename Condition>
bool waitFor(Condition done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs) {
        QTest::qWait(20);
    }
    return done();
}
