# ratio_threads.gp - each placement's throughput divided by the no-request
# baseline's at the same point, against threads, log-log: one panel per
# lock (and input), one line per placement in its fixed colour (lock),
# point and dash (policy), hollow for a dry control; whiskers = the 95%
# interval of the ratio of geometric means.  The dashed line is 1 (no
# change); a vertical line in the series' colour marks each crossover,
# where the ratio crosses 1 and the intervals on both sides exclude 1
# (crossings within noise are in the .dat only), labelled with the
# interpolated thread count (staggered in height, so neighbours stay legible).
# The y axis is rlo..rhi (plotcross.c ratio_range, at most 1/16..16): a
# ratio beyond it is a triangle at the edge labelled with its value
# (column 5) just inside the axis, staggered by series so that clipped
# neighbours stay legible; a whisker beyond it ends at the edge.
# Set by slicebench plot: terminal, output, datafile, ptitle, the arrays of
# plotpanel.h (npan, PT, PB0, PB1, nb, BT, BC, BPT, BDT, BDX, xmin, xmax,
# cols, rows), rlo, rhi, and ncx, CXP, CXX, CXC (the significant crossovers).
set multiplot layout rows, cols title ptitle font ',12'
set xlabel 'threads'
set ylabel 'placement / no request'
set grid
set logscale x 2
set xrange [xmin / 1.5:xmax * 1.5]
set logscale y 10
# one scale for every panel, a little beyond the edge for the triangles
set yrange [rlo / 1.25:rhi * 1.25]
if (rhi >= 16) { set ytics ('1/16' 0.0625, '1/4' 0.25, '1/2' 0.5, '1' 1, '2' 2, '4' 4, '16' 16) } else {
if (rhi >= 4) { set ytics ('0.25' 0.25, '0.5' 0.5, '0.67' 0.6667, '1' 1, '1.5' 1.5, '2' 2, '4' 4) } else {
if (rhi >= 2) { set ytics ('0.5' 0.5, '0.67' 0.6667, '0.8' 0.8, '1' 1, '1.25' 1.25, '1.5' 1.5, '2' 2) } else {
	set ytics ('0.67' 0.6667, '0.8' 0.8, '0.9' 0.9, '1' 1, '1.1' 1.1, '1.25' 1.25, '1.5' 1.5) } } }
cl(y) = y < rlo ? rlo : y > rhi ? rhi : y
set key below horizontal font ',9' samplen 3
do for [p=1:npan] {
	set title PT[p] font ',10'
	unset arrow
	unset label
	set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
	do for [k=1:ncx] {
		if (ncx > 0 && CXP[k] == p) {
			set arrow (k + 1) from first CXX[k], graph 0 to first CXX[k], graph 1 nohead lc rgb CXC[k] lw 1.5
			set label (k + 1) sprintf('%.3g', CXX[k]) at first CXX[k], graph (0.96 - 0.05 * (k % 4)) left offset 0.3, 0 font ',8' tc rgb CXC[k]
		}
	}
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using ($1*BDX[i]):(cl($2)):(cl($3)):(cl($4)) with yerrorlines \
		lc rgb BC[i] pt BPT[i] dt BDT[i] lw 1.5 ps 1.2 title BT[i], \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using ($1*BDX[i]):($2 < rlo ? rlo : NaN) with points pt 11 ps 1.8 lc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using ($1*BDX[i]):($2 > rhi ? rhi : NaN) with points pt 9 ps 1.8 lc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using ($1*BDX[i]):(cl($2)):($2 < rlo ? strcol(5) : '') with labels \
		offset 0, 1 + 0.9 * ((i - PB0[p]) % 4) font ',7' tc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using ($1*BDX[i]):(cl($2)):($2 > rhi ? strcol(5) : '') with labels \
		offset 0, -1 - 0.9 * ((i - PB0[p]) % 4) font ',7' tc rgb BC[i] notitle
}
unset multiplot
