# counters.gp - counters per operation, one panel per counter (all the same
# height), one bar per result in its lock's colour with its policy's point
# on top (RC, RP; the key at the top), bars grouped by the setting they ran
# at (the group named once, under the last panel); a panel whose values
# span more than a decade is drawn on a log axis (CLOG).
# Set by slicebench plot: terminal, output, datafile, ptitle, n, CN, CLOG,
# RC, RP, xend, nk, KT, KC, KP; columns: x, group, one per counter.
bottom = 0.24
step = (0.90 - bottom) / n
set multiplot title ptitle font ',12'
set style fill solid 0.6 border -1
set boxwidth 0.8
set grid y
set lmargin at screen 0.08
set rmargin at screen 0.98
set xrange [-0.8:xend + 0.8]
set format y '%.0s%c'
set key at screen 0.5, screen 0.935 center horizontal font ',9' samplen 1 width 1
bars(j) = sprintf('datafile using 1:(column(%d)):(RC[int($0) + 1]) with boxes lc rgb variable notitle, datafile using 1:(column(%d)):(RP[int($0) + 1]):(RC[int($0) + 1]) with points pt variable lc rgb variable ps 0.9 notitle', j + 2, j + 2)
do for [j=1:n] {
	set tmargin at screen 0.90 - (j - 1) * step - 0.025
	set bmargin at screen 0.90 - j * step + 0.01
	set label 1 CN[j] at graph 0.01, graph 0.9 left front font ',9'
	if (CLOG[j]) { set logscale y 10; set yrange [*:*] } else { unset logscale y; set yrange [0:*] }
	if (j == 1) {
		unset xtics
		eval('plot '.bars(j).', for [k=1:nk] NaN with linespoints lc rgb KC[k] pt KP[k] lw 6 title KT[k]')
		unset key
	} else { if (j < n) {
		unset xtics
		eval('plot '.bars(j))
	} else {
		set xtics rotate by 90 right font ',8' scale 0
		plot datafile using 1:(column(j + 2)):(RC[int($0) + 1]):xtic(2) with boxes lc rgb variable notitle, \
		     datafile using 1:(column(j + 2)):(RP[int($0) + 1]):(RC[int($0) + 1]) with points pt variable lc rgb variable ps 0.9 notitle
	} }
}
unset multiplot
