# throughput_threads.gp - critical sections per second against thread count,
# one line per series, error bars = the 95% CI of the mean over repetitions.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle.
set title ptitle
set xlabel 'threads'
set ylabel 'critical sections / s'
set key outside right top
set grid
set logscale x 2
set offsets graph 0.05, graph 0.05, graph 0.05, 0
set yrange [0:*]
plot for [i=1:n] datafile index (i-1) using 1:2:3:4 with yerrorlines lw 1.5 title word(names, i)
