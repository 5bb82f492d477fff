// The search space: a tree of named parameters, each a constant, a sampled domain or a nested
// group, with optional conditions. Sampling is pure: randomness comes in through Rng.
// Value types; safe to share read-only between threads.
//
// Semantics follow Ray Tune's domains (ray.tune.uniform, quniform, ...):
//  * randint / lograndint: integers in [low, high) (upper bound exclusive, as Ray and NNI);
//  * qrandint: multiples of q in [low, high] (upper bound inclusive, as Ray);
//  * qlograndint: multiples of q in [low, high] drawn on a log scale (Ray's qlograndint);
//  * quniform / qloguniform / qnormal: the sample rounded to the nearest multiple of q;
//  * grid: every value, in order; the cartesian product of all grid parameters is repeated
//    num_samples times (Ray's BasicVariantGenerator);
//  * choice: one value uniformly at random; a value that is itself a group of domains makes
//    the parameters inside it conditional on that option being chosen (hyperopt/NNI style);
//  * `when`: a parameter only exists when another parameter (dotted path) has one of the given
//    values, e.g. `momentum` only when `optimizer == "sgd"`.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/config_json.h"
#include "core/rng.h"
#include "core/source_location.h"
#include "core/status.h"

namespace tunedeck {

enum class DomainKind {
    Uniform,
    QUniform,
    LogUniform,
    QLogUniform,
    RandInt,
    QRandInt,
    LogRandInt,
    QLogRandInt,
    Normal,
    QNormal,
    Choice,
    Grid,
};

// The YAML/JSON name of a domain kind ("uniform", "qloguniform", ...) and back.
QString domainKindName(DomainKind kind);
std::optional<DomainKind> domainKindFromName(const QString& name);
bool isNumericDomain(DomainKind kind);  // everything but choice and grid
bool isIntegerDomain(DomainKind kind);  // randint, qrandint, lograndint, qlograndint

struct SearchSpace;

// One option of a choice or grid: a plain value, or (for choice) a nested group of parameters
// whose sampled values form the option's value (an object).
struct DomainOption {
    QJsonValue value;                    // the option as written (used when `group` is null)
    std::shared_ptr<SearchSpace> group;  // set when the option contains domains
    FloatPaths writtenFloats;            // numbers of `value` written as floats ("1.0")
};

struct Domain {
    DomainKind kind = DomainKind::Uniform;
    double low = 0;  // uniform family, randint family
    double high = 0;
    double q = 0;   // quantum for q* kinds (0 = none)
    double mu = 0;  // normal family
    double sigma = 1;
    std::vector<DomainOption> options;  // choice and grid

    // Checks bounds and quanta (empty range, log bound <= 0, sigma <= 0, q <= 0, no options).
    // The message names the problem but not the location; the caller adds that.
    Status validate() const;

    // One value drawn from `rng` (integers for integer kinds). A choice or grid yields the
    // option as written, even when it is a group; SearchSpace::sample expands groups.
    QJsonValue sampleValue(Rng& rng) const;
    // For numeric domains: the value at position `unit` in [0, 1] of the range (in log space
    // for log kinds; mu -/+ 3 sigma for normals), rounded as the domain rounds (integers, q)
    // and kept inside it. And back: where a value sits in [0, 1] (nullopt if not a number).
    // Model-based searchers work in these coordinates (core/unit_cube.h).
    QJsonValue fromUnit(double unit) const;
    std::optional<double> toUnit(const QJsonValue& value) const;
    // Every value the domain can produce, in order (choice and grid as written, integer and
    // q kinds ascending), or nullopt when the domain is continuous or unbounded, has an option
    // that is a group, or has more than `maxCount` values.
    std::optional<QJsonArray> finiteValues(std::int64_t maxCount) const;
};

// `path` is resolved like a name in nested scopes: when its first segment names a parameter
// written earlier in an enclosing group, innermost first, it is relative to that group
// (`when: {type: cnn}` inside `model` means `model.type`); otherwise it is a path from the top.
struct Condition {
    QString path;       // dotted path of the parameter it depends on, e.g. "optimizer"
    QJsonArray values;  // the parameter must equal one of these
};

struct Parameter {
    enum class Kind { Constant, Sampled, Group };
    QString name;  // the key inside its group
    Kind kind = Kind::Constant;
    QJsonValue constant;                 // Kind::Constant
    FloatPaths writtenFloats;            // numbers of `constant` written as floats ("1.0")
    Domain domain;                       // Kind::Sampled
    std::shared_ptr<SearchSpace> group;  // Kind::Group
    std::optional<Condition> when;
    SourceLocation location;  // where it was written, for error messages
};

struct SearchSpace {
    std::vector<Parameter> parameters;  // in the order written

    // Dotted paths of every grid parameter reachable without going through a choice option,
    // in the order written (grid inside a conditional option is rejected by validate()).
    QStringList gridPaths() const;
    // Number of points of the grid (1 when there is no grid parameter).
    std::int64_t gridSize() const;
    // Every sampled parameter as (dotted path, domain), for searchers that model the space.
    // Parameters inside choice options are left out (their choice is listed).
    std::vector<std::pair<QString, const Domain*>> flatDomains() const;

    // Checks every domain and every condition (the path exists and is not itself conditional
    // on the parameter that names it). The message starts with the parameter's location, then
    // its dotted path inside the space: "exp.yaml:4:9: model.depth: randint: low (4) must ...".
    Status validate() const;

    // Samples one config. `gridIndex` picks the point of the grid (0 .. gridSize()-1); grid
    // parameters take their value from it, everything else is drawn from `rng`.
    QJsonObject sample(Rng& rng, std::int64_t gridIndex = 0) const;
    // The same, with some values given (points_to_evaluate, a grid point): a parameter whose
    // dotted path has a value in `fixed` takes it as is, whatever its `when` says; a group
    // given as a mapping is filled in key by key. Keys of `fixed` outside the space are ignored.
    QJsonObject sample(Rng& rng, std::int64_t gridIndex, const QJsonObject& fixed) const;
};

// The dotted path of `name` inside the group at dotted path `prefix` (empty: the top).
QString joinPath(const QString& prefix, const QString& name);

// One group being walked while a config is built or checked: the group, the dotted path of its
// object in the config, and the index of the parameter being looked at. A walk keeps a stack of
// them, outermost first.
struct GroupFrame {
    const SearchSpace* space;
    QString prefix;
    std::size_t index;
};

// The dotted path from the top of a config that a `when` path (see Condition) names, for the
// parameter a walk is at in `frames`. Searchers that build configs themselves use it so their
// configs have exactly the keys SearchSpace::sample gives.
QString resolveConditionPath(const std::vector<GroupFrame>& frames, const QString& path);

// Value at a dotted path of a config ("model.depth"); undefined QJsonValue when absent.
QJsonValue valueAtPath(const QJsonObject& config, const QString& dottedPath);
// Sets the value at a dotted path, creating the groups on the way.
void setValueAtPath(QJsonObject& config, const QString& dottedPath, const QJsonValue& value);

}  // namespace tunedeck
