# forest.gp - the answer figure: each comparison's ratio to its baseline
# (ratio of geometric means, B/A) as a dot with its 95% interval as a
# whisker, on a log axis, where ratios are symmetric.  One panel per value
# of the first parameter that varies, groups down a panel for the others,
# one row per compared workload in its fixed colour and shape.  A row with
# its verdict printed beside it is significant and outside the noise band
# (shaded); a row without one is inconclusive.
# Set by slicebench plot: terminal, output, datafile, ptitle, npan, cols,
# PT, PB0, PB1, YT (ytics per panel), YMIN, nb, BT, BC, BPT, BK (key entry),
# band, xlo, xhi, xt, xl, lm (the left margin, in characters, that holds
# the longest label); columns: ratio lo hi y verdict.
rows = (npan + cols - 1) / cols
set multiplot layout rows, cols title ptitle font ',12'
set logscale x 10
set xrange [xlo:xhi]
eval('set xtics '.xt)
set xlabel xl
set grid x
set key below horizontal font ',9' samplen 1
set object 1 rect from 1 / (1 + band), graph 0 to 1 + band, graph 1 behind fc rgb '#e8e8e8' fs solid noborder
set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#555555'
set lmargin lm
do for [p=1:npan] {
	set title PT[p] font ',10'
	set yrange [YMIN[p] - 0.7:0.7]
	eval('set ytics '.YT[p].' font ",9"')
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) using 1:4:2:3 with xerrorbars \
		lc rgb BC[i] pt BPT[i] ps 1.3 lw 1.5 title (BK[i] ? BT[i] : ''), \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 3:4:(strcol(5) eq '-' ? '' : strcol(5)) with labels left offset 0.8, 0 \
		font ',8' tc rgb BC[i] notitle
}
unset multiplot
