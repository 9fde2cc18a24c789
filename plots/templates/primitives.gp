# primitives.gp - what one operation of each primitive costs (a system
# call, an uncontended and a contended atomic, a futex wake, a cache-line
# round trip, rseq_slice_yield ...), TSC cycles per operation on a log
# axis, one dot and 95% whisker per primitive, one panel per input.
# Set by slicebench plot: as throughput_threads.gp; column 5 is the name.
set multiplot layout rows, cols title ptitle font ',12'
set ylabel 'TSC cycles / operation'
set grid y
set logscale y 10
set yrange [10**floor(log10(ymin)):10**ceil(log10(ymax))]
set xrange [xmin - 0.6:xmax + 0.6]
set xtics rotate by 30 right font ',9'
set bmargin 6
do for [p=1:npan] {
	set title PT[p] font ',10'
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) using 1:2:3:4:xtic(5) with yerrorbars \
		lc rgb BC[i] pt BPT[i] ps 1.3 lw 1.5 notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) using 1:2:(sprintf('%.0f', $2)) \
		with labels left offset 1, 0 font ',8' notitle
}
unset multiplot
