#include "charts/chart_theme.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QPalette>

namespace tunedeck::app {

void applyChartTheme(QWidget* root) {
    const QPalette palette = QApplication::palette();
    const bool dark = palette.color(QPalette::Window).lightness() <
                      palette.color(QPalette::WindowText).lightness();
    QList<QChartView*> all = root ? root->findChildren<QChartView*>() : QList<QChartView*>();
    if (!root) {
        for (QWidget* widget : QApplication::allWidgets()) {
            if (auto* view = qobject_cast<QChartView*>(widget)) {
                all << view;
            }
        }
    }
    for (QChartView* view : all) {
        const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
        if (view->chart() && view->chart()->theme() != theme) {
            view->chart()->setTheme(theme);
        }
    }
}

}  // namespace tunedeck::app
