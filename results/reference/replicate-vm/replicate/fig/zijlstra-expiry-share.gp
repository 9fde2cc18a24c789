set title 'zijlstra-expiry-share'; set xrange [0.5:2.5]; set xtics ('published' 1, 'here' 2)
plot 'zijlstra-expiry-share.dat' using 1:3:4:5 with yerrorbars pointtype 7 pointsize 1.5 notitle
