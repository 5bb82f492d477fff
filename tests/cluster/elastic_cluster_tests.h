// Experiments on elastic clusters, judged from the outside (console, node events, the SQLite
// history, what the provider's own tools show): a real one-host Slurm (test_slurm.cpp) and the
// command provider with nodes made by shell scripts the test writes (test_command_provider.cpp).
#pragma once

#include <QJsonObject>
#include <QObject>
#include <vector>

class TestElasticClusters : public QObject {
    Q_OBJECT
  private slots:
    void scalesWithTheDemandAndSurvivesScancel();
    void commandProviderScalesAndSurvivesAReclaim();
    void commandProviderMistakesAreRefusedAtValidate();
    void shippedCloudExamplesValidate();
};

// The JSON objects of an --events file, in order.
std::vector<QJsonObject> readEventsFile(const QString& path);
