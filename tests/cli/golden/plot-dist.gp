# weft-plot 0.1.0: distribution of active-ut, from tests/fixtures/plot/vt-bsearch.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/dist.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "active uTs per issued uT instruction, bsearch"
set ylabel "issued uT instructions (%)"
set xlabel "active uTs (% of the vector)"
set key outside right top vertical
set xrange [-0.6:3.6]
set xtics ("1-25" 0, "26-50" 1, "51-75" 2, "76-100" 3)
set yrange [0:*]
set boxwidth 0.266667 absolute
$s0 << EOD
-0.266667 13.19382606
0.733333 6.96794301
1.73333 9.186702286
2.73333 70.65152864
EOD
$s1 << EOD
0 1.929974381
1 4.773697694
2 11.55422716
3 81.74210077
EOD
$s2 << EOD
0.266667 12.13621819
1.26667 5.934785921
2.26667 9.393570014
3.26667 72.53542587
EOD
plot $s0 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#4477aa' title "vt-c4v1r256+bi", \
     $s1 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#ee6677' title "vt-c4v1r256+bi+1s", \
     $s2 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#228833' title "vt-c4v1r256+bi+2s"
unset output
