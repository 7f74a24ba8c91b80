# weft-plot 0.1.0: bars of energy_total_j, from tests/fixtures/plot/sgemm.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/bars-energy.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "sgemm"
set ylabel "energy (uJ)"
set boxwidth 0.7 absolute
set yrange [0:173.151]
set xtics ("fermi-sm" 0, "sgmf-core" 1, "dmt-cgra" 2)
set xrange [-0.6:2.6]
unset key
$s0 << EOD
0 58.16491685
EOD
$s1 << EOD
1 157.409961
EOD
$s2 << EOD
2 125.6831371
EOD
plot $s0 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#4477aa' title "fermi-sm", \
     $s1 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#ee6677' title "sgmf-core", \
     $s2 using 1:2 with boxes fs solid 0.9 border lc rgb '#000000' lc rgb '#228833' title "dmt-cgra"
unset output
