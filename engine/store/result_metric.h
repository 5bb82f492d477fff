// Where an experiment's metric sits in one result: a top-level key, or, when no key has that
// name, a path through nested objects ("val/loss"), as the app reads it from a result event.
// ResultMetric reads it from a result's stored JSON text in place, without building a document:
// a million results are read in about a third of the time SQLite's json_extract alone took
// (tests/bench/app/bench_app_stream). Immutable after construction; thread-safe.
#pragma once

#include <QJsonObject>
#include <QString>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tunedeck::store {

// What a result without the metric (or with something other than a number there) reads as.
inline constexpr double kNoMetric = std::numeric_limits<double>::quiet_NaN();

// The metric in a parsed result; kNoMetric when it is not a number there.
double metricInResult(const QJsonObject& result, const QString& metric);

class ResultMetric {
  public:
    explicit ResultMetric(const QString& metric);
    // The metric in one result's JSON text, exactly as metricInResult() reads the parsed text:
    // text the scanner does not follow (an escaped key, damaged JSON) goes to the parser.
    double in(std::string_view json) const;

  private:
    std::string key_;
    std::vector<std::string> path_;  // empty unless the metric has a '/'
    QString metric_;
};

}  // namespace tunedeck::store
