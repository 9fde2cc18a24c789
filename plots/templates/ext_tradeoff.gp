# ext_tradeoff.gp - the slice-extension trade-off: throughput gain over the
# shortest extension against the victim's p99.99 wakeup latency, one point
# per slice_ext_nsec (labelled), one line per workload joining them from
# the shortest extension to the longest, small multiples as
# throughput_threads.gp.  Labels alternate above and below the points so
# neighbours do not print over each other.
# Set by slicebench plot: as throughput_threads.gp; column 5 is the label.
set multiplot layout rows, cols title ptitle font ',12'
set xlabel 'victim p99.99 wakeup latency (us)'
set ylabel 'gain over the shortest (%)'
set grid
set key below horizontal font ',9' samplen 3
set offsets graph 0.1, graph 0.1, graph 0.15, graph 0.15
# Points per line: gnuplot 5.4 crashes (SIGSEGV) on a labels plot none of
# whose points is valid, so a one-point line's below-the-point pass plots
# its point again with an empty label.
array NR[nb]
do for [i=1:nb] { stats datafile index (i-1) using 1 nooutput; NR[i] = STATS_records }
do for [p=1:npan] {
	set title PT[p] font ',10'
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) using 1:2 with linespoints \
		lc rgb BC[i] pt BPT[i] dt BDT[i] lw 1.5 title BT[i], \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) using 1:(int($0) % 2 ? NaN : $2):5 \
		with labels offset 0, 1 font ',8' tc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:(int($0) % 2 || NR[i] < 2 ? $2 : NaN):(NR[i] < 2 ? "" : strcol(5)) \
		with labels offset 0, -1 font ',8' tc rgb BC[i] notitle
}
unset multiplot
