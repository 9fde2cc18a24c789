# ratio_threads.gp - each placement's throughput divided by the no-request
# baseline's at the same point, against threads, log-log: one panel per
# lock (and input), one line per placement in its fixed colour (lock),
# point and dash (policy), hollow for a dry control; whiskers = the 95%
# interval of the ratio of geometric means.  The dashed line is 1 (no
# change); a vertical line in the series' colour marks each crossover,
# where the ratio crosses 1 and the intervals on both sides exclude 1
# (crossings within noise are in the .dat only), labelled with the
# interpolated thread count (staggered in height, so neighbours stay legible).
# Set by slicebench plot: terminal, output, datafile, ptitle, the arrays of
# plotpanel.h (npan, PT, PB0, PB1, nb, BT, BC, BPT, BDT, BDX, xmin, xmax,
# ymin, ymax, cols, rows) and ncx, CXP, CXX, CXC (the significant crossovers).
set multiplot layout rows, cols title ptitle font ',12'
set xlabel 'threads'
set ylabel 'placement / no request'
set grid
set logscale x 2
set xrange [xmin / 1.5:xmax * 1.5]
set logscale y 10
set format y '%.3g'
# one scale for every panel, always including 1
lo = ymin < 1 ? ymin : 1
hi = ymax > 1 ? ymax : 1
set yrange [lo / 1.2:hi * 1.2]
# a tick per doubling over a narrow range, per decade over a wide one
if (hi / lo > 64) { set ytics 10 } else { set ytics 2 }
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
		using ($1*BDX[i]):2:3:4 with yerrorlines \
		lc rgb BC[i] pt BPT[i] dt BDT[i] lw 1.5 ps 1.2 title BT[i]
}
unset multiplot
