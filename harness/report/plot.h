/* plot.h - `slicebench plot`: gnuplot reports (PNG + SVG + index.html)
 * from result files, templates in plots/templates/NAME.gp. */
#ifndef SB_PLOT_H
#define SB_PLOT_H

int cmd_plot(int argc, char **argv);

#endif
