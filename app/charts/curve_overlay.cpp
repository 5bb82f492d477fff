#include "charts/curve_overlay.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace tunedeck::app {

CurveOverlay::CurveOverlay(const QString& title, QWidget* parent) : QChartView(new QChart, parent) {
    chart()->setTitle(title);
    // Beside the plot, one entry under another: each gets the width of its name (experiment and
    // trial), where a row above the plot cut them all to "tradeoff: t...".
    chart()->legend()->setAlignment(Qt::AlignRight);
    setRenderHint(QPainter::Antialiasing);
}

void CurveOverlay::showCurves(const std::vector<NamedCurve>& curves, const QString& xTitle,
                              const QString& yTitle) {
    QChart* c = chart();
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    auto* x = new QValueAxis;
    x->setTitleText(xTitle);
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    for (QValueAxis* axis : {x, y}) {
        axis->setLabelFormat(QStringLiteral("%g"));  // "10", not QtCharts' "10.0"
    }
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    double minX = 0, maxX = 1, minY = 0, maxY = 1;
    bool any = false;
    for (const NamedCurve& curve : curves) {
        auto* series = new QLineSeries;
        series->setName(curve.name);
        for (std::size_t i = 0; i < std::min(curve.x.size(), curve.y.size()); ++i) {
            series->append(curve.x[i], curve.y[i]);
            minX = any ? std::min(minX, curve.x[i]) : curve.x[i];
            maxX = any ? std::max(maxX, curve.x[i]) : curve.x[i];
            minY = any ? std::min(minY, curve.y[i]) : curve.y[i];
            maxY = any ? std::max(maxY, curve.y[i]) : curve.y[i];
            any = true;
        }
        // A trial that reported once (an Optuna-style objective) is a point, not an empty line.
        series->setPointsVisible(series->count() == 1);
        c->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    const double padY = maxY > minY ? 0.05 * (maxY - minY) : 1.0;
    // One iteration for all (trials that reported once): their points in the middle.
    x->setRange(maxX > minX ? minX : minX - 1, maxX > minX ? maxX : minX + 1);
    y->setRange(minY - padY, maxY + padY);
    x->applyNiceNumbers();  // ticks at round numbers, not at the data's own ends
    y->applyNiceNumbers();
}

}  // namespace tunedeck::app
