// A few named curves on one chart with value axes (the two experiments' best trials, say),
// ranged to fit them all with a margin above and below. GUI thread only.
#pragma once

#include <QChartView>
#include <QString>
#include <vector>

namespace tunedeck::app {

struct NamedCurve {
    QString name;
    std::vector<double> x;
    std::vector<double> y;
};

class CurveOverlay : public QChartView {
    Q_OBJECT
  public:
    explicit CurveOverlay(const QString& title, QWidget* parent = nullptr);

    // Replaces what is shown.
    void showCurves(const std::vector<NamedCurve>& curves, const QString& xTitle,
                    const QString& yTitle);
};

}  // namespace tunedeck::app
