set title 'gleixner-rearm-1'; set xrange [0.5:2.5]; set xtics ('published' 1, 'here' 2)
set logscale y; set ylabel 'arm / baseline'
set arrow from 0.5,1 to 2.5,1 nohead dashtype 2
plot 'gleixner-rearm-1.dat' using 1:3:4:5 with yerrorbars pointtype 7 pointsize 1.5 notitle
