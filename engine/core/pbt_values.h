// Config values as pbt's option checks, explore step and exploit reasons see them: equality
// across JSON number forms, one-line descriptions for messages, and the numbers a mutation's
// domain allows. Shared by pbt_options.cpp, pbt_explore.cpp and pbt_scheduler.cpp only.
// Pure functions; thread-safe.
#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/scheduler_options.h"
#include "core/search_space.h"

namespace tunedeck::pbt_values {

// Numbers compare by value, whatever JSON form they were read from.
inline bool sameValue(const QJsonValue& a, const QJsonValue& b) {
    if (a.isDouble() && b.isDouble()) {
        return a.toDouble() == b.toDouble();
    }
    return a == b;
}

// A value as messages show it: numbers as formatNumber does, groups and lists as compact JSON.
inline QString describeValue(const QJsonValue& value) {
    if (value.isDouble()) {
        return scheduler_options::formatNumber(value.toDouble());
    }
    if (value.isString()) {
        return value.toString();
    }
    if (value.isObject()) {
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    if (value.isArray()) {
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    }
    return value.isBool() ? (value.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                          : QStringLiteral("null");
}

// The values a numeric domain can take, as a closed range; nullopt when it is unbounded
// (normal) or not numeric.
struct Range {
    double low = 0;
    double high = 0;
};
inline std::optional<Range> closedRange(const Domain& d) {
    switch (d.kind) {
        case DomainKind::Uniform:
        case DomainKind::QUniform:
        case DomainKind::LogUniform:
        case DomainKind::QLogUniform:
        case DomainKind::QRandInt:
        case DomainKind::QLogRandInt:
            return Range{d.low, d.high};
        case DomainKind::RandInt:
        case DomainKind::LogRandInt:
            return Range{d.low, d.high - 1};  // upper bound exclusive
        default:
            return std::nullopt;
    }
}

// Whether [low, high] lies inside `range`, allowing for rounding in the last digits.
inline bool rangeHolds(const Range& range, double low, double high) {
    const double slack = 1e-12 * std::max({1.0, std::abs(range.low), std::abs(range.high)});
    return low >= range.low - slack && high <= range.high + slack;
}

// "uniform 0 .. 1", or the kind's name for a domain without a closed range.
inline QString describeDomain(const Domain& d) {
    if (closedRange(d)) {
        return QStringLiteral("%1 %2 .. %3")
            .arg(domainKindName(d.kind), scheduler_options::formatNumber(d.low),
                 scheduler_options::formatNumber(d.high));
    }
    return domainKindName(d.kind);
}

inline bool isList(const Domain& d) {
    return d.kind == DomainKind::Choice || d.kind == DomainKind::Grid;
}

}  // namespace tunedeck::pbt_values
