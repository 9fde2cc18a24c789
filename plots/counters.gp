# counters.gp - counters per operation, one panel per counter, one bar per
# result (NaN where a result lacks the counter); labels on the last panel.
# Set by slicebench plot: terminal, output, datafile, n, names, ptitle.
set multiplot layout n, 1 title ptitle
set style fill solid 0.6 border -1
set boxwidth 0.7
set grid y
set xtics rotate by -30 left font ',8'
set yrange [0:*]
set lmargin 10
set rmargin 24
do for [j=1:n] {
	set title word(names, j) font ',9'
	set bmargin (j < n ? 1 : 10)
	if (j < n) {
		unset xtics
		plot datafile using 0:(column(j + 1)) with boxes lc j notitle
	} else {
		set xtics rotate by -30 left font ',8'
		plot datafile using 0:(column(j + 1)):xtic(1) with boxes lc j notitle
	}
}
unset multiplot
