# weft-plot 0.1.0: speedup against the swept fabric.token_buffer, from tests/fixtures/plot/sweep-sgemm.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/sweep.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "speedup against fabric.token_buffer, sgemm"
set xlabel "fabric.token_buffer"
set ylabel "speedup (fermi-sm = 1)"
set key outside right top vertical
set logscale x 2
set xtics (1, 2, 4, 8, 16, 32)
set yrange [0:*]
set offsets graph 0.03, graph 0.03, graph 0.08, 0
$s1 << EOD
1 0.3033193742
2 0.4068291221
4 0.4886379505
8 0.5386113488
16 0.5522533204
32 0.5514558663
EOD
plot 1 with lines dt 2 lw 1.5 lc rgb '#555555' title "fermi-sm", \
     $s1 using 1:2 with linespoints lc rgb '#ee6677' lw 2 pt 5 ps 1.2 title "sgmf-core"
unset output
