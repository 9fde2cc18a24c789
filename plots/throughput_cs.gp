# throughput_cs.gp - critical sections per second against the critical-section
# length, one line per series, error bars = 95% CI of the mean.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle, logx.
set title ptitle
set xlabel 'critical section length cs_ns (ns)'
set ylabel 'critical sections / s'
set key outside right top
set grid
if (logx) set logscale x 10
set logscale y 10
set offsets graph 0.05, graph 0.05, 0, 0
plot for [i=1:n] datafile index (i-1) using 1:2:3:4 with yerrorlines lw 1.5 title word(names, i)
