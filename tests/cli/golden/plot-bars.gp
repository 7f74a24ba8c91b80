# weft-plot 0.1.0: bars of speedup, from tests/fixtures/plot/sgemm.json, tests/fixtures/plot/reduce.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/bars.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "speedup"
set ylabel "speedup (fermi-sm = 1)"
set boxwidth 0.266667 absolute
set yrange [0:1.1]
set xtics ("sgemm" 0, "reduce" 1, "geomean" 2)
set xrange [-0.6:2.6]
set key outside right top vertical
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1 lc rgb '#000000' front
$s0 << EOD
-0.266667 1
0.733333 1
1.73333 1
EOD
$s1 << EOD
0 0.5522533204
1 0.5449960372
2 0.5486126786
EOD
$s2 << EOD
0.266667 0.5711318067
1.26667 0.8372504889
2.26667 0.6915058817
EOD
plot $s0 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#4477aa' title "fermi-sm", \
     $s1 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#ee6677' title "sgmf-core", \
     $s2 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#228833' title "dmt-cgra"
unset output
