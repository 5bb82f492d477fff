// Golden-file plumbing shared by the config tests: where the cases live, reading and writing
// them, and the comparison that can rewrite an expected file on request.
// Test-only helpers; call from the test thread.
#pragma once

#include <QString>
#include <QStringList>

namespace tunedeck::testing {

QString goldenDir();
QString readText(const QString& path);
bool writeText(const QString& path, const QString& text);

// Every NAME.yaml (and NAME.json when asked) directly in `dir`, sorted, as full paths.
QStringList goldenInputs(const QString& dir, bool withJson);

// `output` (an error text or a dump) followed by one "warning: ..." line per warning, with paths
// shown relative to the golden folder.
QString goldenText(const QString& output, const QStringList& warnings);

// Compares `actual` with NAME.expected beside `input`; with TUNEDECK_UPDATE_GOLDEN=1 in the
// environment, rewrites it instead (and skips). Call last in a test function.
void compareWithExpected(const QString& input, const QString& actual);

}  // namespace tunedeck::testing
