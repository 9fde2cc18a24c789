# ccdf.gp - a latency distribution as a complementary CDF on log-log axes:
# P(latency > x), from the sparse log-linear histograms.  The body of the
# distribution is the drop on the left, the tail to the right is the rare
# slow case (a holder or waiter that was preempted, a victim kept from its
# CPU).  Small multiples as throughput_threads.gp, one step line per
# workload.
# Set by slicebench plot: as throughput_threads.gp, plus xl (x label) and
# yl (y label).
set multiplot layout rows, cols title ptitle font ',12'
set xlabel xl
set ylabel yl
set grid
set logscale xy 10
# one scale for every panel, whole decades; at least one decade each way
# (a distribution of one bucket has ymin 1, and xmin = xmax)
xlo = 10**floor(log10(xmin))
xhi = 10**ceil(log10(xmax))
if (xhi <= xlo) xhi = 10 * xlo
ylo = 10**floor(log10(ymin))
if (ylo >= 1) ylo = 0.1
set xrange [xlo:xhi]
# headroom above 1, so that the level at 1 is not hidden by the border
set yrange [ylo:1.3]
set format x '%.0s%c'
set format y '%g'
set key below horizontal font ',9' samplen 3
do for [p=1:npan] {
	set title PT[p] font ',10'
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) using 1:2 with steps \
		lc rgb BC[i] dt BDT[i] lw 1.5 title BT[i]
}
unset multiplot
