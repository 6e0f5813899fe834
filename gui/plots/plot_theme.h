#pragma once

class QCustomPlot;
class QPalette;

namespace kiln::gui {

// QCustomPlot paints its own background, axes, grid and text; these give them the colours of
// the application's theme (Edit > Preferences), so a dark theme has dark plots.
void applyPalette(QCustomPlot* plot, const QPalette& palette);
// Applies the plot's palette now and again whenever the theme changes.
void followPalette(QCustomPlot* plot);
// Shows the legend as a row above the axes (under the title when there is one), so that it
// never hides the curves' ends or a marker.
void legendAboveData(QCustomPlot* plot);

} // namespace kiln::gui
