# ext_tradeoff.gp - the slice-extension trade-off: throughput gain over the
# baseline against the victim's p99.99 wakeup latency, one point per
# slice_ext_nsec (labelled), one line per workload.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle.
set title ptitle
set xlabel 'victim p99.99 wakeup latency (us)'
set ylabel 'throughput gain over baseline (%)'
set key outside right top
set grid
set offsets graph 0.08, graph 0.08, graph 0.08, graph 0.08
plot for [i=1:n] datafile index (i-1) using 1:2 with linespoints lw 1.5 pt 7 title word(names, i), \
     for [i=1:n] datafile index (i-1) using 1:2:5 with labels offset 0,1 notitle
