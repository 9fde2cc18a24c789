# throughput_cs.gp - critical sections per second against the critical-section
# length, small multiples as throughput_threads.gp, whiskers = 95% CI.
# Set by slicebench plot: as throughput_threads.gp, plus logx.
set multiplot layout rows, cols title ptitle font ',12'
set xlabel 'critical section cs_ns (ns)'
set ylabel 'critical sections / s'
set grid
if (logx) set logscale x 10
set format x '%.0s%c'
set format y '%.0s%c'
# one y scale for every panel, whole decades when logarithmic
if (logy) { set logscale y 10; set yrange [10**floor(log10(ymin)):10**ceil(log10(ymax))] } \
else { set yrange [0:ymax * 1.05] }
set key below horizontal font ',9' samplen 3
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
do for [p=1:npan] {
	set title PT[p] font ',10'
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:2:(logy && $3 <= 0 ? $2 : $3):4 with yerrorlines \
		lc rgb BC[i] pt BPT[i] dt BDT[i] lw 1.5 title BT[i]
}
unset multiplot
