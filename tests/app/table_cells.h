// Whether the trial table shows its cells whole, as a user reads them (not "t000…", not
// "0.0005540…"): the pixels a cell's text lacks in its column. Header-only; GUI thread only.
#pragma once

#include <QAbstractItemModel>
#include <QFont>
#include <QFontMetricsF>
#include <QModelIndex>
#include <QStyle>
#include <QTableView>
#include <algorithm>
#include <cmath>

namespace app_test {

// How many pixels the text of the cell at `index` lacks in its column (0: it shows whole). The
// room is the column less the text margins item views keep on each side (QCommonStyle's).
inline int missingPixels(QTableView* table, const QModelIndex& index) {
    const QVariant fontRole = index.data(Qt::FontRole);
    const QFont font = fontRole.isValid() ? fontRole.value<QFont>() : table->font();
    const int margin =
        table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
    // Fractions count: the view elides a text a fraction of a pixel too wide.
    const int text = int(std::ceil(QFontMetricsF(font).horizontalAdvance(index.data().toString())));
    return std::max(0, text + 2 * margin - table->visualRect(index).width());
}

// How many pixels the bold row's trial id lacks in its column (0: it shows whole, not "t000…";
// -1: no row is bold).
inline int boldIdMissingPixels(QTableView* table) {
    QAbstractItemModel* model = table->model();
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex index = model->index(r, 0);
        if (index.data(Qt::FontRole).value<QFont>().bold()) {
            return missingPixels(table, index);
        }
    }
    return -1;
}

}  // namespace app_test
