# weft-plot 0.1.0: bars of speedup, from tests/fixtures/plot/sgemm.json, tests/fixtures/plot/reduce.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/bars-paper.pdf"
set encoding utf8
set terminal pdfcairo size 3.5in,2.5in font 'sans,7' noenhanced
set output outfile
set border 3 lw 1
set tics nomirror scale 0.6
set key samplen 2 spacing 1 width -1
set style fill solid 1.0 border lc rgb '#000000'
set ylabel "speedup (fermi-sm = 1)"
set boxwidth 0.266667 absolute
set yrange [0:1.1]
set xtics ("sgemm" 0, "reduce" 1)
set xrange [-0.6:1.6]
set key above horizontal Left reverse samplen 1 width -2
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1 lc rgb '#000000' front
$s0 << EOD
-0.266667 1
0.733333 1
EOD
$s1 << EOD
0 0.5522533204
1 0.5449960372
EOD
$s2 << EOD
0.266667 0.5711318067
1.26667 0.8372504889
EOD
plot $s0 using 1:2 with boxes fs solid 1.0 border lc rgb '#000000' lc rgb '#404040' title "fermi-sm", \
     $s1 using 1:2 with boxes fs pattern 5 border lc rgb '#000000' lc rgb '#000000' title "sgmf-core", \
     $s2 using 1:2 with boxes fs solid 1.0 border lc rgb '#000000' lc rgb '#a0a0a0' title "dmt-cgra"
unset output
