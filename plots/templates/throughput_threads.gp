# throughput_threads.gp - critical sections per second against thread count,
# small multiples: one panel per setting the runs hold fixed, one line per
# workload in its fixed colour (lock), point and dash (policy); whiskers =
# the 95% CI of the mean over repetitions.  Series sit slightly apart on x
# (BDX) so equal thread counts do not hide each other.  A log y axis when
# the values span more than a decade: a lock that collapses stays visible.
# Set by slicebench plot: terminal, output, datafile, ptitle and the arrays
# of plotpanel.h (npan, PT, PB0, PB1, nb, BT, BC, BPT, BDT, BDX, logy, xmin,
# xmax, cols, rows).
set multiplot layout rows, cols title ptitle font ',12'
set xlabel 'threads'
set ylabel 'critical sections / s'
set grid
set logscale x 2
# one x range for every panel, with room for the offsets of lone points
set xrange [xmin / 1.5:xmax * 1.5]
set format y '%.0s%c'
# one y scale for every panel, whole decades when logarithmic
if (logy) { set logscale y 10; set yrange [10**floor(log10(ymin)):10**ceil(log10(ymax))] } \
else { set yrange [0:ymax * 1.05] }
set key below horizontal font ',9' samplen 3
set offsets 0, 0, graph 0.05, graph 0.05
do for [p=1:npan] {
	set title PT[p] font ',10'
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using ($1*BDX[i]):2:(logy && $3 <= 0 ? $2 : $3):4 with yerrorlines \
		lc rgb BC[i] pt BPT[i] dt BDT[i] lw 1.5 ps 1.2 title BT[i]
}
unset multiplot
