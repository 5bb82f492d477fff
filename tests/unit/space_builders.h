// Builders that let a test write a search space about as briefly as the YAML it stands for.
// Test-only; plain functions returning values.
#pragma once

#include <QJsonArray>
#include <QJsonValue>
#include <initializer_list>
#include <memory>

#include "core/search_space.h"

namespace tunedeck::testing {

inline Domain bounded(DomainKind kind, double low, double high, double q = 0) {
    Domain d;
    d.kind = kind;
    d.low = low;
    d.high = high;
    d.q = q;
    return d;
}
inline Domain uniform(double low, double high) {
    return bounded(DomainKind::Uniform, low, high);
}
inline Domain quniform(double low, double high, double q) {
    return bounded(DomainKind::QUniform, low, high, q);
}
inline Domain loguniform(double low, double high) {
    return bounded(DomainKind::LogUniform, low, high);
}
inline Domain qloguniform(double low, double high, double q) {
    return bounded(DomainKind::QLogUniform, low, high, q);
}
inline Domain randint(double low, double high) {
    return bounded(DomainKind::RandInt, low, high);
}
inline Domain qrandint(double low, double high, double q) {
    return bounded(DomainKind::QRandInt, low, high, q);
}
inline Domain lograndint(double low, double high) {
    return bounded(DomainKind::LogRandInt, low, high);
}
inline Domain normal(double mu, double sigma, double q = 0) {
    Domain d;
    d.kind = q > 0 ? DomainKind::QNormal : DomainKind::Normal;
    d.mu = mu;
    d.sigma = sigma;
    d.q = q;
    return d;
}
inline Domain withOptions(DomainKind kind, const QJsonArray& values) {
    Domain d;
    d.kind = kind;
    for (const auto& value : values) {
        d.options.push_back({value, nullptr, {}});
    }
    return d;
}
inline Domain choice(const QJsonArray& values) {
    return withOptions(DomainKind::Choice, values);
}
inline Domain grid(const QJsonArray& values) {
    return withOptions(DomainKind::Grid, values);
}

inline SearchSpace space(std::initializer_list<Parameter> parameters) {
    SearchSpace s;
    s.parameters = parameters;
    return s;
}
// A choice whose options are groups of parameters (hyperopt/NNI nested choice).
inline Domain choiceOfGroups(std::initializer_list<SearchSpace> groups) {
    Domain d;
    d.kind = DomainKind::Choice;
    for (const auto& group : groups) {
        d.options.push_back({QJsonValue(), std::make_shared<SearchSpace>(group), {}});
    }
    return d;
}

inline Parameter param(const QString& name, const Domain& domain) {
    Parameter p;
    p.name = name;
    p.kind = Parameter::Kind::Sampled;
    p.domain = domain;
    return p;
}
inline Parameter constant(const QString& name, const QJsonValue& value) {
    Parameter p;
    p.name = name;
    p.kind = Parameter::Kind::Constant;
    p.constant = value;
    return p;
}
inline Parameter group(const QString& name, const SearchSpace& inner) {
    Parameter p;
    p.name = name;
    p.kind = Parameter::Kind::Group;
    p.group = std::make_shared<SearchSpace>(inner);
    return p;
}
inline Parameter when(Parameter p, const QString& path, const QJsonArray& values) {
    p.when = Condition{path, values};
    return p;
}
inline Parameter at(Parameter p, const QString& file, int line, int column) {
    p.location = SourceLocation{file, line, column};
    return p;
}

}  // namespace tunedeck::testing
