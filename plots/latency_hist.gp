# latency_hist.gp - a latency distribution from the sparse log-linear
# histograms: fraction of samples per bucket (16 per octave, so equal
# widths on the log axis above 16 ns), one line per result.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle, xl.
set title ptitle
set xlabel xl
set ylabel 'fraction of samples per bucket'
set key outside right top
set grid
set logscale x 10
set format x '%.0s%c'
plot for [i=1:n] datafile index (i-1) using 1:2 with steps lw 1.2 title word(names, i)
