// Search-space domains and sampling, checked against Ray Tune's documented semantics.
#include <QJsonDocument>
#include <QSet>
#include <QTest>
#include <cmath>

#include "core/search_space.h"
#include "space_builders.h"

using namespace tunedeck;
using namespace tunedeck::testing;

Q_DECLARE_METATYPE(tunedeck::Domain)

namespace {

QString jsonText(const QJsonValue& value) {
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

bool isMultipleOf(double value, double q) {
    const double k = std::round(value / q);
    return std::abs(value - k * q) < 1e-9;
}

QJsonValue draw(const Domain& domain, Rng& rng) {
    const SearchSpace s = space({param("x", domain)});
    return s.sample(rng).value("x");
}

}  // namespace

class TestSearchSpace : public QObject {
    Q_OBJECT

  private slots:
    void kindNamesRoundTrip() {
        for (int k = int(DomainKind::Uniform); k <= int(DomainKind::Grid); ++k) {
            const auto kind = DomainKind(k);
            QCOMPARE(domainKindFromName(domainKindName(kind)), kind);
        }
        QCOMPARE(domainKindName(DomainKind::QLogUniform), QStringLiteral("qloguniform"));
        QCOMPARE(domainKindFromName(QStringLiteral("gaussian")), std::nullopt);
        QVERIFY(isIntegerDomain(DomainKind::LogRandInt));
        QVERIFY(!isIntegerDomain(DomainKind::QUniform));
        QVERIFY(!isNumericDomain(DomainKind::Choice));
    }

    void valuesStayInBounds_data() {
        QTest::addColumn<Domain>("domain");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<bool>("highIncluded");
        QTest::newRow("uniform") << uniform(-2, 3) << -2.0 << 3.0 << false;
        QTest::newRow("quniform") << quniform(0, 1, 0.1) << 0.0 << 1.0 << true;
        QTest::newRow("loguniform") << loguniform(1e-5, 1e-1) << 1e-5 << 1e-1 << false;
        QTest::newRow("qloguniform") << qloguniform(1, 1000, 5) << 1.0 << 1000.0 << true;
        QTest::newRow("randint") << randint(-3, 4) << -3.0 << 4.0 << false;
        QTest::newRow("qrandint") << qrandint(0, 20, 5) << 0.0 << 20.0 << true;
        QTest::newRow("lograndint") << lograndint(1, 100) << 1.0 << 100.0 << false;
    }
    void valuesStayInBounds() {
        QFETCH(Domain, domain);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(bool, highIncluded);
        QVERIFY(domain.validate().isOk());
        Rng rng(99);
        for (int i = 0; i < 5000; ++i) {
            const double v = draw(domain, rng).toDouble();
            QVERIFY2(v >= low && (highIncluded ? v <= high : v < high),
                     qPrintable(QString::number(v)));
        }
    }

    void integerRangesFollowRay() {
        // randint: upper bound exclusive, both ends reached; qrandint: upper bound inclusive.
        Rng rng(1);
        QSet<qint64> randints, qrandints, lograndints;
        for (int i = 0; i < 3000; ++i) {
            randints.insert(draw(randint(0, 4), rng).toInteger());
            qrandints.insert(draw(qrandint(0, 20, 5), rng).toInteger());
            lograndints.insert(draw(lograndint(1, 4), rng).toInteger());
        }
        QCOMPARE(randints, (QSet<qint64>{0, 1, 2, 3}));
        QCOMPARE(qrandints, (QSet<qint64>{0, 5, 10, 15, 20}));
        QCOMPARE(lograndints, (QSet<qint64>{1, 2, 3}));
    }

    void qrandintOnlyGivesMultiplesInsideTheBounds() {
        Rng rng(2);
        QSet<qint64> seen;
        for (int i = 0; i < 3000; ++i) {
            seen.insert(draw(qrandint(3, 17, 5), rng).toInteger());
        }
        QCOMPARE(seen, (QSet<qint64>{5, 10, 15}));
    }

    void integerDomainsGiveJsonIntegers() {
        Rng rng(4);
        for (const Domain& d : {randint(0, 1000000), qrandint(0, 100, 7), lograndint(1, 1 << 20)}) {
            for (int i = 0; i < 200; ++i) {
                const QJsonValue v = draw(d, rng);
                QVERIFY(v.isDouble());
                QCOMPARE(v.toDouble(), std::floor(v.toDouble()));
                const QString text = jsonText(v);
                QVERIFY2(!text.contains('.') && !text.contains('e'), qPrintable(text));
            }
        }
    }

    void quantizedValuesAreCleanMultiples() {
        // A user asking for quniform(0, 1, 0.1) expects 0.3 in the config, not
        // 0.30000000000000004.
        Rng rng(5);
        QSet<QString> texts;
        for (int i = 0; i < 2000; ++i) {
            const QJsonValue v = draw(quniform(0, 1, 0.1), rng);
            QVERIFY(isMultipleOf(v.toDouble(), 0.1));
            texts.insert(jsonText(v));
        }
        for (const QString& text : texts) {
            QVERIFY2(text.size() <= 3, qPrintable(text));
        }
        QCOMPARE(texts.size(), 11);
        for (int i = 0; i < 2000; ++i) {
            QVERIFY(isMultipleOf(draw(qloguniform(10, 1000, 10), rng).toDouble(), 10));
            QVERIFY(isMultipleOf(draw(normal(0, 5, 0.5), rng).toDouble(), 0.5));
        }
    }

    // Issue 16.11: quniform(0.1, 1, 0.25) gave 0.1, which is no multiple of 0.25. Bounds that
    // are not multiples of q are refused, as Ray's Float.quantized does, with what to write.
    void quniformBoundsThatAreNotMultiplesOfQAreRefused() {
        const Status status = quniform(0.1, 1, 0.25).validate();
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(status.message(),
                 QStringLiteral("quniform: low (0.1) is not a multiple of q (0.25); write bounds "
                                "that are, e.g. [0.25, 1, 0.25]"));
        QVERIFY(!quniform(0, 1.1, 0.25).validate().isOk());
        // Decimal fractions whose ratio carries binary noise are multiples all the same.
        QVERIFY(quniform(0.0, 0.5, 0.1).validate().isOk());
        QVERIFY(quniform(0.3, 0.9, 0.1).validate().isOk());
        QVERIFY(quniform(-1.5, 1.5, 0.5).validate().isOk());
    }

    // Issue 32: for quniform [0.5, 0.9, 2] (an NNI search space) the advice was [2, 0, 2], itself
    // refused. No multiple of q lies in the range: the advice is a smaller q, and NNI's clipping.
    void quniformWithQWiderThanTheRangeSuggestsAValidStep() {
        const Status status = quniform(0.5, 0.9, 2).validate();
        QCOMPARE(status.code(), Status::Code::InvalidArgument);
        QCOMPARE(status.message(),
                 QStringLiteral("quniform: no multiple of q (2) lies between low (0.5) and high "
                                "(0.9); write a smaller q, e.g. [0.5, 0.9, 0.1] (NNI clips every "
                                "such value to 0.5 or 0.9: for that, write choice [0.5, 0.9])"));
        QVERIFY(quniform(0.5, 0.9, 0.1).validate().isOk());
        QVERIFY(quniform(10, 30, 10).validate().isOk());
        QCOMPARE(quniform(1, 7, 20).validate().message(),
                 QStringLiteral("quniform: no multiple of q (20) lies between low (1) and high "
                                "(7); write a smaller q, e.g. [1, 7, 1] (NNI clips every such "
                                "value to 1 or 7: for that, write choice [1, 7])"));
    }

    void quniformGivesOnlyMultiplesOfQ() {
        Rng rng(6);
        for (int i = 0; i < 3000; ++i) {
            const double v = draw(quniform(0.3, 0.9, 0.1), rng).toDouble();
            QVERIFY2(v >= 0.3 && v <= 0.9 && isMultipleOf(v, 0.1), qPrintable(QString::number(v)));
        }
    }

    // qloguniform keeps NNI's clamping (a log range starts above 0, so its low is rarely a
    // multiple of q): values below the first multiple become low itself.
    void qloguniformClampsIntoTheBounds() {
        Rng rng(6);
        double smallest = 1000;
        for (int i = 0; i < 3000; ++i) {
            const double v = draw(qloguniform(1, 1000, 5), rng).toDouble();
            QVERIFY(v >= 1 && v <= 1000);
            QVERIFY(v == 1 || isMultipleOf(v, 5));
            smallest = std::min(smallest, v);
        }
        QCOMPARE(smallest, 1.0);
    }

    // Ray's qlograndint(low, high, q): multiples of q in [low, high] (upper bound included),
    // spread on a log scale, as JSON integers.
    void qlograndintGivesIntegerMultiplesOnALogScale() {
        Domain d = bounded(DomainKind::QLogRandInt, 1, 1000, 5);
        QVERIFY(d.validate().isOk());
        QCOMPARE(domainKindFromName("qlograndint"), std::optional(DomainKind::QLogRandInt));
        Rng rng(8);
        int belowHundred = 0;
        bool sawHigh = false;
        for (int i = 0; i < 4000; ++i) {
            const QJsonValue v = draw(d, rng);
            QVERIFY(v.toVariant().typeId() == QMetaType::LongLong);
            const qint64 n = v.toInteger();
            QVERIFY2(n >= 5 && n <= 1000 && n % 5 == 0, qPrintable(QString::number(n)));
            belowHundred += n < 100 ? 1 : 0;
            sawHigh = sawHigh || n == 1000;
        }
        // Log scale: about two thirds of the draws lie below 100 (a uniform draw: a tenth).
        QVERIFY2(belowHundred > 2400, qPrintable(QString::number(belowHundred)));
        QVERIFY(sawHigh);
        QCOMPARE(d.finiteValues(1000)->size(), 200);
        QCOMPARE(bounded(DomainKind::QLogRandInt, 0, 10, 2).validate().message(),
                 QStringLiteral("qlograndint: low (0) must be above 0, since the range is "
                                "sampled in log space"));
        QCOMPARE(bounded(DomainKind::QLogRandInt, 1, 10, 2.5).validate().message(),
                 QStringLiteral("qlograndint: q (2.5) must be a whole number"));
    }

    void logUniformIsUniformInLogSpace() {
        // Each decade of loguniform(1e-4, 1) gets a quarter of the draws; a linear draw would
        // put 90% in the top decade.
        Rng rng(7);
        int decades[4] = {};
        const int n = 40000;
        for (int i = 0; i < n; ++i) {
            const double v = draw(loguniform(1e-4, 1), rng).toDouble();
            ++decades[std::clamp(static_cast<int>(std::floor(std::log10(v))) + 4, 0, 3)];
        }
        for (int count : decades) {
            QVERIFY2(std::abs(count - n / 4) < n / 50, qPrintable(QString::number(count)));
        }
    }

    void normalCentersOnMu() {
        Rng rng(8);
        double sum = 0;
        for (int i = 0; i < 20000; ++i) {
            sum += draw(normal(10, 2), rng).toDouble();
        }
        QVERIFY(std::abs(sum / 20000 - 10) < 0.1);
    }

    void choicePicksEveryOptionEvenly() {
        Rng rng(9);
        QMap<QString, int> counts;
        for (int i = 0; i < 9000; ++i) {
            ++counts[draw(choice({"sgd", "adam", "rmsprop"}), rng).toString()];
        }
        QCOMPARE(counts.size(), 3);
        for (int count : counts) {
            QVERIFY(std::abs(count - 3000) < 250);
        }
    }

    void gridIsTheProductWithTheFirstParameterSlowest() {
        const SearchSpace s =
            space({param("a", grid({1, 2})), constant("c", 7), param("b", grid({"x", "y", "z"}))});
        QCOMPARE(s.gridPaths(), (QStringList{"a", "b"}));
        QCOMPARE(s.gridSize(), 6);
        QStringList order;
        for (int i = 0; i < 6; ++i) {
            Rng rng(0);
            const QJsonObject config = s.sample(rng, i);
            order << QString::number(config["a"].toInt()) + config["b"].toString();
            QCOMPARE(config["c"].toInt(), 7);
        }
        QCOMPARE(order, (QStringList{"1x", "1y", "1z", "2x", "2y", "2z"}));
    }

    void gridInsideAGroupHasADottedPath() {
        const SearchSpace s = space(
            {param("lr", grid({0.1, 0.01})),
             group("model", space({param("depth", grid({2, 4, 8})), constant("act", "relu")}))});
        QCOMPARE(s.gridPaths(), (QStringList{"lr", "model.depth"}));
        QCOMPARE(s.gridSize(), 6);
        Rng rng(0);
        const QJsonObject config = s.sample(rng, 5);
        QCOMPARE(config["lr"].toDouble(), 0.01);
        QCOMPARE(config["model"].toObject()["depth"].toInt(), 8);
        QCOMPARE(config["model"].toObject()["act"].toString(), QStringLiteral("relu"));
    }

    void noGridMeansOnePoint() {
        QCOMPARE(space({param("x", uniform(0, 1))}).gridSize(), 1);
        QVERIFY(space({param("x", uniform(0, 1))}).gridPaths().isEmpty());
    }

    void sameSeedSameConfigsDifferentSeedDifferent() {
        const SearchSpace s = space({param("lr", loguniform(1e-5, 1)), param("n", randint(0, 1000)),
                                     param("opt", choice({"a", "b", "c"}))});
        Rng a(2024), b(2024), c(2025);
        bool differs = false;
        for (int i = 0; i < 20; ++i) {
            const QJsonObject x = s.sample(a);
            QCOMPARE(s.sample(b), x);
            differs = differs || s.sample(c) != x;
        }
        QVERIFY(differs);
    }

    void conditionalParameterOnlyWhenItsConditionHolds() {
        const SearchSpace s =
            space({param("optimizer", choice({"sgd", "adam"})),
                   when(param("momentum", uniform(0.5, 0.99)), "optimizer", {"sgd"})});
        QVERIFY(s.validate().isOk());
        Rng rng(10);
        int withMomentum = 0, without = 0;
        for (int i = 0; i < 400; ++i) {
            const QJsonObject config = s.sample(rng);
            const bool sgd = config["optimizer"].toString() == QStringLiteral("sgd");
            QCOMPARE(config.contains("momentum"), sgd);
            (sgd ? withMomentum : without)++;
        }
        QVERIFY(withMomentum > 100 && without > 100);
    }

    void conditionInsideAGroupNamesASibling() {
        const SearchSpace s = space({group(
            "model", space({param("type", choice({"cnn", "mlp"})),
                            when(param("kernel", randint(1, 8)), "type", {"cnn"}),
                            when(param("hidden", randint(8, 64)), "model.type", {"mlp"})}))});
        QVERIFY2(s.validate().isOk(), qPrintable(s.validate().message()));
        Rng rng(11);
        for (int i = 0; i < 200; ++i) {
            const QJsonObject model = s.sample(rng)["model"].toObject();
            const bool cnn = model["type"].toString() == QStringLiteral("cnn");
            QCOMPARE(model.contains("kernel"), cnn);
            QCOMPARE(model.contains("hidden"), !cnn);
        }
    }

    void conditionOnANumberMatchesIntegersAndDoubles() {
        const SearchSpace s = space({param("layers", randint(1, 3)),
                                     when(param("skip", choice({true, false})), "layers", {2.0})});
        Rng rng(12);
        for (int i = 0; i < 100; ++i) {
            const QJsonObject config = s.sample(rng);
            QCOMPARE(config.contains("skip"), config["layers"].toInt() == 2);
        }
    }

    void nestedGroupsProduceNestedObjects() {
        const SearchSpace s = space(
            {group("model", space({param("depth", randint(1, 5)),
                                   group("head", space({param("dropout", uniform(0, 0.5))}))}))});
        Rng rng(13);
        const QJsonObject config = s.sample(rng);
        const QJsonObject model = config["model"].toObject();
        QVERIFY(model["depth"].toInt() >= 1 && model["depth"].toInt() < 5);
        QVERIFY(model["head"].toObject().contains("dropout"));
        QCOMPARE(valueAtPath(config, "model.head.dropout"), model["head"].toObject()["dropout"]);
    }

    void choiceOfGroupsGivesTheChosenGroupsParameters() {
        const SearchSpace s = space({param(
            "optimizer",
            choiceOfGroups(
                {space({constant("name", "sgd"), param("momentum", uniform(0, 1))}),
                 space({constant("name", "adam"), param("beta1", uniform(0.8, 1)),
                        when(param("amsgrad", choice({true, false})), "name", {"adam"})})}))});
        QVERIFY2(s.validate().isOk(), qPrintable(s.validate().message()));
        Rng rng(14);
        QSet<QString> names;
        for (int i = 0; i < 100; ++i) {
            const QJsonObject opt = s.sample(rng)["optimizer"].toObject();
            const QString name = opt["name"].toString();
            const QStringList keyList = opt.keys();
            const QSet<QString> keys(keyList.begin(), keyList.end());
            names.insert(name);
            if (name == QStringLiteral("sgd")) {
                QCOMPARE(keys, (QSet<QString>{"name", "momentum"}));
            } else {
                QCOMPARE(keys, (QSet<QString>{"name", "beta1", "amsgrad"}));
            }
        }
        QCOMPARE(names, (QSet<QString>{"sgd", "adam"}));
    }

    void fixedValuesWinAndTheRestIsSampled() {
        const SearchSpace s =
            space({param("optimizer", choice({"sgd", "adam"})),
                   when(param("momentum", uniform(0.5, 0.99)), "optimizer", {"sgd"}),
                   group("model",
                         space({param("depth", randint(1, 5)), param("width", randint(8, 9))}))});
        Rng rng(15);
        const QJsonObject config = s.sample(
            rng, 0, QJsonObject{{"optimizer", "sgd"}, {"model", QJsonObject{{"depth", 42}}}});
        QCOMPARE(config["optimizer"].toString(), QStringLiteral("sgd"));
        QVERIFY(config.contains("momentum"));  // the condition sees the given value
        QCOMPARE(config["model"].toObject()["depth"].toInt(), 42);
        QCOMPARE(config["model"].toObject()["width"].toInt(), 8);
    }

    void domainValidationNamesTheProblem_data() {
        QTest::addColumn<Domain>("domain");
        QTest::addColumn<QString>("message");
        QTest::newRow("uniform empty")
            << uniform(1, 0) << "uniform: low (1) must be below high (0)";
        QTest::newRow("uniform equal")
            << uniform(2, 2) << "uniform: low (2) must be below high (2)";
        QTest::newRow("quniform empty")
            << quniform(1, 0, 0.1) << "quniform: low (1) must be below high (0)";
        QTest::newRow("randint empty")
            << randint(5, 5) << "randint: low (5) must be below high (5)";
        QTest::newRow("loguniform zero")
            << loguniform(0, 1)
            << "loguniform: low (0) must be above 0, since the range is sampled in log space";
        QTest::newRow("qloguniform negative")
            << qloguniform(-1, 1, 0.1)
            << "qloguniform: low (-1) must be above 0, since the range is sampled in log space";
        QTest::newRow("lograndint zero")
            << lograndint(0, 10)
            << "lograndint: low (0) must be above 0, since the range is sampled in log space";
        QTest::newRow("quniform q zero") << quniform(0, 1, 0) << "quniform: q (0) must be above 0";
        QTest::newRow("qrandint q negative")
            << qrandint(0, 10, -2) << "qrandint: q (-2) must be above 0";
        QTest::newRow("normal sigma zero") << normal(0, 0) << "normal: sigma (0) must be above 0";
        QTest::newRow("qnormal sigma negative")
            << normal(0, -1, 0.5) << "qnormal: sigma (-1) must be above 0";
        QTest::newRow("randint fraction")
            << randint(0.5, 3) << "randint: low (0.5) must be a whole number";
        QTest::newRow("qrandint no multiple")
            << qrandint(1, 4, 5)
            << "qrandint: no multiple of q (5) lies between low (1) and high (4)";
        QTest::newRow("uniform infinite")
            << uniform(0, qInf()) << "uniform: low and high must be finite numbers";
        QTest::newRow("choice empty") << choice({}) << "choice: needs at least one option";
        QTest::newRow("grid empty") << grid({}) << "grid: needs at least one option";
        Domain qnormalZero = normal(0, 1);
        qnormalZero.kind = DomainKind::QNormal;
        QTest::newRow("qnormal q missing") << qnormalZero << "qnormal: q (0) must be above 0";
        Domain gridOfGroups = choiceOfGroups({space({constant("a", 1)})});
        gridOfGroups.kind = DomainKind::Grid;
        QTest::newRow("grid of groups")
            << gridOfGroups
            << "grid: option 1 contains search domains; only choice options may (a grid point "
               "must be a plain value)";
        QTest::newRow("valid uniform") << uniform(0, 1) << "";
        QTest::newRow("valid qrandint") << qrandint(0, 10, 5) << "";
    }
    void domainValidationNamesTheProblem() {
        QFETCH(Domain, domain);
        QFETCH(QString, message);
        const Status status = domain.validate();
        QCOMPARE(status.isOk(), message.isEmpty());
        QCOMPARE(status.message(), message);
    }

    void spaceValidationStartsWithTheLocation() {
        const SearchSpace s = space({at(param("lr", uniform(1, 0)), "exp.yaml", 4, 9)});
        QCOMPARE(s.validate().message(),
                 QStringLiteral("exp.yaml:4:9: lr: uniform: low (1) must be below high (0)"));
        const SearchSpace nested = space({group("model", space({param("depth", randint(4, 2))}))});
        QCOMPARE(nested.validate().message(),
                 QStringLiteral("model.depth: randint: low (4) must be below high (2)"));
    }

    void conditionOnAMissingParameterIsRejected() {
        const SearchSpace s = space({when(param("momentum", uniform(0, 1)), "optimiser", {"sgd"})});
        QCOMPARE(s.validate().message(),
                 QStringLiteral("momentum: when: there is no parameter 'optimiser'"));
    }

    void conditionOnALaterParameterIsRejected() {
        const SearchSpace s = space({when(param("momentum", uniform(0, 1)), "optimizer", {"sgd"}),
                                     param("optimizer", choice({"sgd", "adam"}))});
        QVERIFY(s.validate().message().contains(
            QStringLiteral("when: 'optimizer' must be written before 'momentum'")));
        const SearchSpace self = space({when(param("x", uniform(0, 1)), "x", {1})});
        QVERIFY(!self.validate().isOk());
    }

    void conditionWithoutValuesIsRejected() {
        const SearchSpace s = space({param("optimizer", choice({"sgd"})),
                                     when(param("momentum", uniform(0, 1)), "optimizer", {})});
        QVERIFY(s.validate().message().contains(QStringLiteral("needs at least one value")));
    }

    void conditionalGridIsRejected() {
        const SearchSpace withWhen =
            space({param("optimizer", choice({"sgd", "adam"})),
                   when(param("lr", grid({0.1, 0.01})), "optimizer", {"sgd"})});
        QVERIFY(withWhen.validate().message().startsWith(
            QStringLiteral("lr: grid: a grid parameter cannot have a `when` condition")));
        const SearchSpace inOption =
            space({param("optimizer", choiceOfGroups({space({param("lr", grid({0.1, 0.01}))})}))});
        QVERIFY(inOption.validate().message().startsWith(QStringLiteral(
            "optimizer.lr: grid: a grid parameter cannot be inside a choice option")));
        QCOMPARE(inOption.gridSize(), 1);
    }

    void duplicateAndDottedNamesAreRejected() {
        QVERIFY(space({param("lr", uniform(0, 1)), param("lr", uniform(0, 1))})
                    .validate()
                    .message()
                    .contains(QStringLiteral("written twice")));
        QVERIFY(space({param("a.b", uniform(0, 1))})
                    .validate()
                    .message()
                    .contains(QStringLiteral("cannot contain '.'")));
    }

    void badDomainInsideAChoiceOptionIsFound() {
        const SearchSpace s = space(
            {param("optimizer", choiceOfGroups({space({param("momentum", uniform(1, 0))})}))});
        QCOMPARE(s.validate().message(),
                 QStringLiteral("optimizer.momentum: uniform: low (1) must be below high (0)"));
    }

    void finiteValuesEnumerateWhatSamplingCanGive() {
        QCOMPARE(*randint(2, 5).finiteValues(100), (QJsonArray{2, 3, 4}));
        QCOMPARE(*qrandint(0, 10, 5).finiteValues(100), (QJsonArray{0, 5, 10}));
        QCOMPARE(*quniform(0, 1, 0.25).finiteValues(100), (QJsonArray{0, 0.25, 0.5, 0.75, 1}));
        QCOMPARE(*choice({"a", "b"}).finiteValues(100), (QJsonArray{"a", "b"}));
        QCOMPARE(uniform(0, 1).finiteValues(100), std::nullopt);
        QCOMPARE(randint(0, 1000).finiteValues(100), std::nullopt);
    }

    void uncheckedBadDomainGivesNullInsteadOfCrashing() {
        Rng rng(16);
        QVERIFY(draw(qrandint(0, 10, 0), rng).isNull());
        QVERIFY(draw(loguniform(0, 1), rng).isNull());
    }

    void valueAtPathFollowsDots() {
        const QJsonObject config{{"a", QJsonObject{{"b", QJsonObject{{"c", 3}}}}}, {"x", 1}};
        QCOMPARE(valueAtPath(config, "a.b.c").toInt(), 3);
        QCOMPARE(valueAtPath(config, "x").toInt(), 1);
        QVERIFY(valueAtPath(config, "a.z").isUndefined());
        QVERIFY(valueAtPath(config, "x.y").isUndefined());
        QVERIFY(valueAtPath(config, "").isUndefined());
    }

    void flatDomainsListsSampledParametersWithPaths() {
        const SearchSpace s = space({param("lr", uniform(0, 1)), constant("c", 1),
                                     group("model", space({param("depth", randint(1, 3))}))});
        const auto flat = s.flatDomains();
        QCOMPARE(flat.size(), std::size_t(2));
        QCOMPARE(flat[0].first, QStringLiteral("lr"));
        QCOMPARE(flat[1].first, QStringLiteral("model.depth"));
        QCOMPARE(flat[1].second->kind, DomainKind::RandInt);
    }
};

QTEST_GUILESS_MAIN(TestSearchSpace)
#include "test_search_space.moc"
