// The colour of a trial wherever trials are drawn as lines (the curves, their system health, the
// curves' legend), so a trial keeps its colour from one view to the next. Up to
// kDistinctTrialColors trials shown, each gets its own colour of a qualitative palette, in table
// order: the hue circle had given two of a few selected trials magenta and crimson. More than
// that cannot be told apart by colour anyway: they are spread around the hue circle by their row,
// and the best trial, drawn thick, has one strong colour. Thread-safe.
#pragma once

#include <QColor>
#include <algorithm>
#include <vector>

namespace tunedeck::app {

// Matplotlib's tab10 (Tableau's), then ten more, each the one of a list of well-known
// qualitative colours (tab20, tab20b, Trubetskoy's, Dark2...) farthest in CIELAB from those
// before it, so no pair is closer than tab10's own closest two.
inline constexpr int kDistinctTrialColors = 20;

inline QColor distinctTrialColor(int index) {
    static constexpr QRgb kPalette[kDistinctTrialColors] = {
        0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
        0x7f7f7f, 0xbcbd22, 0x17becf, 0xf032e6, 0xa6761d, 0x637939, 0x93003a,
        0xff9896, 0x1b9e77, 0xaec7e8, 0xe7298a, 0x00429d, 0x000075};
    return QColor(kPalette[std::max(0, index) % kDistinctTrialColors]);
}

inline QColor trialLineColor(int row, bool best) {
    return best ? QColor(0xd8, 0x1b, 0x60) : QColor::fromHsv((row * 47) % 360, 140, 200);
}

// The colours of the trials one view shows, given their rows in the experiment's table.
class TrialColors {
  public:
    TrialColors() = default;
    // `shownRows`: the rows of the trials shown (any order).
    explicit TrialColors(std::vector<int> shownRows) : rows_(std::move(shownRows)) {
        std::sort(rows_.begin(), rows_.end());
        rows_.erase(std::unique(rows_.begin(), rows_.end()), rows_.end());
    }

    // Each shown trial has a colour of its own.
    bool distinct() const { return !rows_.empty() && int(rows_.size()) <= kDistinctTrialColors; }
    QColor of(int row, bool best) const {
        if (!distinct()) {
            return trialLineColor(row, best);
        }
        return distinctTrialColor(
            int(std::lower_bound(rows_.begin(), rows_.end(), row) - rows_.begin()));
    }
    bool operator==(const TrialColors& other) const = default;

  private:
    std::vector<int> rows_;
};

}  // namespace tunedeck::app
