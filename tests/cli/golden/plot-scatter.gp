# weft-plot 0.1.0: scatter of energy_total_j against insts_per_s_per_mm2, from tests/fixtures/plot/sgemm.json, tests/fixtures/plot/reduce.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/scatter.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "energy against performance per area"
set xlabel "performance per area (Minsts/s/mm2)"
set ylabel "energy (uJ)"
set offsets graph 0.08, graph 0.2, graph 0.08, graph 0.08
set key outside right top vertical
set label "fermi-sm" at 330.5260068, 58.16491685 offset char 0.8, char 0.5 font ',9' front
set label "sgmf-core" at 218.7031917, 157.409961 offset char 0.8, char 0.5 font ',9' front
set label "dmt-cgra" at 168.7526472, 125.6831371 offset char 0.8, char 0.5 font ',9' front
set label "fermi-sm" at 544.303168, 24.07562127 offset char 0.8, char 0.5 font ',9' front
set label "sgmf-core" at 355.4228582, 24.47462606 offset char 0.8, char 0.5 font ',9' front
set label "dmt-cgra" at 361.2560165, 21.91434548 offset char 0.8, char 0.5 font ',9' front
$w0 << EOD
330.5260068 58.16491685
218.7031917 157.409961
168.7526472 125.6831371
EOD
$w1 << EOD
544.303168 24.07562127
355.4228582 24.47462606
361.2560165 21.91434548
EOD
plot $w0 using 1:2 with points lc rgb '#4477aa' lw 2 pt 7 ps 1.2 title "sgemm", \
     $w1 using 1:2 with points lc rgb '#ee6677' lw 2 pt 5 ps 1.2 title "reduce"
unset output
