# compare.gp - the ratio B/A of geometric means per point with its 95% CI
# (Welch on logs), one colour per compared file; 1 = no change.  Log y,
# since ratios are symmetric there; the range is capped at 10x either way
# so one wide CI from two repetitions does not flatten the rest.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle, bw, yl.
set title ptitle
set ylabel yl
set grid y
set key outside right top
set xtics rotate by -30 left font ',8'
set bmargin 10
set rmargin 24
set logscale y 2
set yrange [0.1<*:*<10]
set xrange [-0.6:*]
set offsets 0, 0.6, 0, 0
# Tick labels come from the first block; the others are offset beside it.
plot datafile index 0 using 1:2:3:4:xtic(5) with yerrorbars pt 7 lw 1.5 title word(names, 1), \
     for [i=2:n] datafile index (i-1) using ($1 + (i - 1) * bw):2:3:4 \
	with yerrorbars pt 7 lw 1.5 title word(names, i), \
     1 with lines dt 2 lc rgb 'black' title 'no change'
