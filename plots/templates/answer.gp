# answer.gp - the study's question, answered: each contrast's ratio
# (treatment / control, ratio of geometric means) as a dot with its 95%
# interval, on a symmetric log axis chosen for the effects that matter
# (at most 0.25x-4x; up to 1/128x-128x for a measured value over a
# published one).  Behind each row, a grey bar from 1/MDE to MDE: the smallest effect the row could have detected (80% power at its Holm
# level); a ratio inside its bar that is not significant says nothing.
# A point beyond the axis is drawn at the edge as a triangle with its
# value; a collapse (0-op windows) is an X at its centres' ratio.  The
# right column is each row's verdict (improved, regressed, collapsed) or
# "equivalent" (TOST within the noise band); the dotted line in red is
# the published effect.
# Set by slicebench plot: terminal, output, datafile, ptitle, npan, cols,
# PT, PB0, PB1, YT, Y2T, YMIN, nb, BT, BC, BPT, BK, band, xlo, xhi, pub,
# xl, lm (the left margin, in characters, that holds the longest label); columns: ratio lo hi y verdict mdelo mdehi where note.  (A label
# plot whose every y is NaN crashes gnuplot 5.4: labels are blanked, not
# dropped.)
rows = (npan + cols - 1) / cols
set multiplot layout rows, cols title ptitle font ',12'
set logscale x 10
set xrange [xlo:xhi]
# tics as far apart as the axis allows: doublings on the widest
if (xhi >= 128) { set xtics ('1/100' 0.01, '1/10' 0.1, '1' 1, '10' 10, '100' 100) } else {
if (xhi >= 16) { set xtics ('1/16' 0.0625, '1/4' 0.25, '1/2' 0.5, '1' 1, '2' 2, '4' 4, '16' 16) } else {
if (xhi >= 4) { if (cols > 1) { set xtics ('1/4' 0.25, '1' 1, '4' 4) } else {
	set xtics ('0.25' 0.25, '0.5' 0.5, '1' 1, '2' 2, '4' 4) } } else {
if (xhi >= 2) { if (cols > 1) { set xtics ('0.5' 0.5, '1' 1, '2' 2) } else {
	set xtics ('0.5' 0.5, '0.67' 0.6667, '1' 1, '1.5' 1.5, '2' 2) } } else {
# a panel of two or three abreast is about 120 px wide: three labels
# (seven read "0.670.80.911.1.251.5")
if (cols > 1) { set xtics ('0.8' 0.8, '1' 1, '1.25' 1.25) } else {
	set xtics ('0.67' 0.6667, '0.8' 0.8, '0.9' 0.9, '1' 1, '1.1' 1.1, '1.25' 1.25, '1.5' 1.5) } } } } }
set xlabel xl
set grid x
set key below horizontal font ',9' samplen 1
set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#555555'
if (pub > 0 && pub >= xlo && pub <= xhi) {
	set arrow 2 from pub, graph 0 to pub, graph 1 nohead dt 3 lw 1.5 lc rgb '#cc0000'
}
set lmargin lm
set rmargin 12
do for [p=1:npan] {
	set title PT[p] font ',10'
	set yrange [YMIN[p] - 0.7:0.7]
	eval('set ytics '.YT[p].' font ",9"')
	unset y2tics
	if (strlen(Y2T[p]) > 3) { eval('set y2tics '.Y2T[p].' font ",8" scale 0') }
	set y2range [YMIN[p] - 0.7:0.7]
	plot for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 6:4:($7 - $6):(0) with vectors nohead lw 9 lc rgb '#dddddd' notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:4:2:3 with xerrorbars lc rgb BC[i] pt BPT[i] ps 1.2 lw 1.5 \
		title (BK[i] ? BT[i] : ''), \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:($8 == 1 ? $4 : NaN) with points pt 10 ps 1.8 lc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:($8 == 2 ? $4 : NaN) with points pt 8 ps 1.8 lc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:(strcol(5) eq 'collapsed' ? $4 : NaN) with points pt 2 ps 2 lw 2 lc rgb '#000000' notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:4:($8 == 1 ? strcol(9) : '') with labels left offset 1.2, 0 \
		font ',7' tc rgb BC[i] notitle, \
	     for [i=PB0[p]:PB1[p]] datafile index (i-1) \
		using 1:4:($8 == 2 ? strcol(9) : '') with labels right offset -1.2, 0 \
		font ',7' tc rgb BC[i] notitle
}
unset multiplot
