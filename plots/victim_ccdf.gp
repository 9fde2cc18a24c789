# victim_ccdf.gp - the victim's wakeup latency as a complementary CDF on
# log-log axes: P(latency > x); the tail to the right is the cost a lock
# workload imposes on everyone else.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle.
set title ptitle
set xlabel 'victim wakeup latency (ns)'
set ylabel 'P(latency > x)'
set key outside right top
set grid
set logscale xy 10
set format x '%.0s%c'
plot for [i=1:n] datafile index (i-1) using 1:2 with steps lw 1.5 title word(names, i)
