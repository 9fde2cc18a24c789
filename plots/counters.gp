# counters.gp - counters per operation, one panel per counter (all the same
# height), one bar per result in its workload's colour (RC); a panel whose
# values span more than a decade is drawn on a log axis (CLOG).  Result
# labels on the last panel only, upright so none runs off the page.
# Set by slicebench plot: terminal, output, datafile, ptitle, n, nrow, CN,
# CLOG, RC.
bottom = 0.30
step = (0.93 - bottom) / n
set multiplot title ptitle font ',12'
set style fill solid 0.7 border -1
set boxwidth 0.7
set grid y
set lmargin at screen 0.08
set rmargin at screen 0.98
set xrange [-0.6:nrow - 0.4]
set format y '%.0s%c'
do for [j=1:n] {
	set tmargin at screen 0.93 - (j - 1) * step - 0.025
	set bmargin at screen 0.93 - j * step + 0.01
	set label 1 CN[j] at graph 0.01, graph 0.9 left front font ',9'
	if (CLOG[j]) { set logscale y 10; set yrange [*:*] } else { unset logscale y; set yrange [0:*] }
	if (j < n) {
		set format x ''
		plot datafile using 0:(column(j + 1)):(RC[int($0) + 1]) with boxes lc rgb variable notitle
	} else {
		set format x
		set xtics rotate by 90 right font ',7'
		plot datafile using 0:(column(j + 1)):(RC[int($0) + 1]):xtic(1) with boxes lc rgb variable notitle
	}
}
unset multiplot
