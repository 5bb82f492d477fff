// The catalogue of searchers and schedulers (core/algorithm_catalog.h) that the app's pickers
// show: every algorithm the validators know, every option key they accept with a default, and
// each literal default one the validator accepts when written out.
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include "../unit/space_builders.h"
#include "core/algorithm_catalog.h"
#include "core/scheduler.h"
#include "core/searcher.h"

using namespace tunedeck;
using namespace tunedeck::testing;

namespace {

QStringList namesOf(const std::vector<AlgorithmInfo>& catalog) {
    QStringList names;
    for (const AlgorithmInfo& info : catalog) {
        names << info.name;
    }
    return names;
}

QStringList optionNames(const AlgorithmInfo& info) {
    QStringList names;
    for (const AlgorithmOptionInfo& option : info.options) {
        names << option.name;
    }
    return names;
}

// A literal default as the YAML loader would hand it over (a number, a bool, a list, a string).
QJsonValue parsed(const QString& text) {
    const QJsonDocument document =
        QJsonDocument::fromJson(QStringLiteral("[%1]").arg(text).toUtf8());
    return document.isArray() ? document.array().at(0) : QJsonValue(text);
}

ExperimentSpec specFor() {
    ExperimentSpec spec;
    spec.name = QStringLiteral("catalog");
    spec.metric = QStringLiteral("loss");
    spec.mode = MetricMode::Min;
    spec.objectives = {{spec.metric, spec.mode}};
    spec.numSamples = 4;
    spec.checkpoint.enabled = true;
    spec.searchSpace = space({param("lr", quniform(0, 1, 0.1))});
    return spec;
}

}  // namespace

class TestAlgorithmCatalog : public QObject {
    Q_OBJECT
  private slots:
    void everyAlgorithmTheValidatorsKnowIsListed();
    void everyOptionHasADefault();
    void defaultsComeFromTheOptionStructs();
    void literalDefaultsAreAcceptedWhenWrittenOut();
};

void TestAlgorithmCatalog::everyAlgorithmTheValidatorsKnowIsListed() {
    QCOMPARE(namesOf(searchAlgorithmCatalog()), knownSearchers());
    QCOMPARE(namesOf(schedulerCatalog()), knownSchedulers());
    int defaults = 0;
    for (const AlgorithmInfo& info : searchAlgorithmCatalog()) {
        QVERIFY2(!info.description.isEmpty(), qPrintable(info.name));
        defaults += info.isDefault;
        QCOMPARE(info.isDefault, info.name == QLatin1String("random"));
    }
    for (const AlgorithmInfo& info : schedulerCatalog()) {
        QVERIFY2(!info.description.isEmpty(), qPrintable(info.name));
        QCOMPARE(info.isDefault, info.name == QLatin1String("fifo"));
    }
    QCOMPARE(defaults, 1);
}

void TestAlgorithmCatalog::everyOptionHasADefault() {
    for (const AlgorithmInfo& info : searchAlgorithmCatalog()) {
        QCOMPARE(optionNames(info), searcherOptionNames(info.name));
        for (const AlgorithmOptionInfo& option : info.options) {
            QVERIFY2(!option.defaultValue.isEmpty() && option.defaultValue != QStringLiteral("—"),
                     qPrintable(info.name + '.' + option.name));
        }
    }
    for (const AlgorithmInfo& info : schedulerCatalog()) {
        QCOMPARE(optionNames(info), schedulerOptionNames(info.name));
        for (const AlgorithmOptionInfo& option : info.options) {
            QVERIFY2(!option.defaultValue.isEmpty() && option.defaultValue != QStringLiteral("—"),
                     qPrintable(info.name + '.' + option.name));
        }
    }
}

void TestAlgorithmCatalog::defaultsComeFromTheOptionStructs() {
    // What the pickers showed before the catalogue moved into core, for the options a user
    // looks at first: the same values, now read from the structs.
    const auto defaultOf = [](const std::vector<AlgorithmInfo>& catalog, const QString& name,
                              const QString& option) {
        for (const AlgorithmInfo& info : catalog) {
            for (const AlgorithmOptionInfo& o : info.options) {
                if (info.name == name && o.name == option) {
                    return o.defaultValue;
                }
            }
        }
        return QString();
    };
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "tpe", "n_startup_trials"), QString("10"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "tpe", "gamma"), QString("0.1"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "tpe", "constant_liar"), QString("true"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "bayesopt", "kappa"), QString("2.576"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "bayesopt", "acquisition"), QString("ei"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "cmaes", "restart_strategy"), QString("none"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "bohb", "num_samples"), QString("64"));
    QCOMPARE(defaultOf(searchAlgorithmCatalog(), "random", "repeat"), QString("1"));
    QCOMPARE(defaultOf(schedulerCatalog(), "asha", "max_t"), QString("100"));
    QCOMPARE(defaultOf(schedulerCatalog(), "asha", "reduction_factor"), QString("4"));
    QCOMPARE(defaultOf(schedulerCatalog(), "median", "grace_period"), QString("60"));
    QCOMPARE(defaultOf(schedulerCatalog(), "hyperband", "max_t"), QString("81"));
    QCOMPARE(defaultOf(schedulerCatalog(), "pbt", "perturbation_factors"), QString("[1.2, 0.8]"));
    QCOMPARE(defaultOf(schedulerCatalog(), "pbt", "resample_probability"), QString("0.25"));
    QCOMPARE(defaultOf(schedulerCatalog(), "pb2", "time_attr"), QString("time_total_s"));
}

// A default the catalogue shows as a value must be one the validator takes: written into the
// file, it passes. A struct default the validator refuses would fail here.
void TestAlgorithmCatalog::literalDefaultsAreAcceptedWhenWrittenOut() {
    for (const AlgorithmInfo& info : searchAlgorithmCatalog()) {
        for (const AlgorithmOptionInfo& option : info.options) {
            if (!option.isLiteral) {
                continue;
            }
            ExperimentSpec spec = specFor();
            spec.search.name = info.name;
            spec.search.options.insert(option.name, parsed(option.defaultValue));
            if (info.name == QLatin1String("bohb")) {
                spec.scheduler.name = QStringLiteral("hyperband");
            }
            QString badKey;
            const Status status = validateSearcher(spec, &badKey);
            QVERIFY2(status.isOk(),
                     qPrintable(info.name + '.' + option.name + ": " + status.message()));
        }
    }
    for (const AlgorithmInfo& info : schedulerCatalog()) {
        if (info.name == QLatin1String("pb2") || info.name == QLatin1String("pbt_replay")) {
            continue;  // they need options no default gives (hyperparam_bounds, schedule)
        }
        for (const AlgorithmOptionInfo& option : info.options) {
            if (!option.isLiteral) {
                continue;
            }
            ExperimentSpec spec = specFor();
            spec.scheduler.name = info.name;
            if (info.name == QLatin1String("pbt") &&
                option.name != QLatin1String("custom_explore")) {
                // pbt needs something to change; custom_explore is the one with no syntax.
                spec.scheduler.options.insert(QStringLiteral("custom_explore"),
                                              QJsonObject{{"lr", QJsonArray{0, 1}}});
            }
            spec.scheduler.options.insert(option.name, parsed(option.defaultValue));
            QString badKey;
            const Status status = validateScheduler(spec, &badKey);
            QVERIFY2(status.isOk(),
                     qPrintable(info.name + '.' + option.name + ": " + status.message()));
        }
    }
}

QTEST_GUILESS_MAIN(TestAlgorithmCatalog)
#include "test_algorithm_catalog.moc"
