# weft-plot 0.1.0: utilisation breakdown from the CPI stacks, from tests/fixtures/plot/overlay-util.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/util.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "utilisation and idle cycles, mfilter"
set xlabel 'share of cycles (%)'
set xrange [0:100]
set grid xtics
set yrange [-0.6:1.6]
set key outside right top vertical
set ytics ("overlay-4x4 (55%% issue)" 1, "overlay-8x8 (32%% issue)" 0)
$c0 << EOD
1 0 55
0 0 32.5
EOD
$c1 << EOD
1 55 70
0 32.5 70
EOD
$c2 << EOD
1 70 90
0 70 87.5
EOD
$c3 << EOD
1 90 100
0 87.5 100
EOD
plot $c0 using (($2+$3)/2):1:(($3-$2)/2):(0.35) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#4477aa' title "issue", \
     $c1 using (($2+$3)/2):1:(($3-$2)/2):(0.35) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#ee6677' title "semwait", \
     $c2 using (($2+$3)/2):1:(($3-$2)/2):(0.35) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#228833' title "inside_alu", \
     $c3 using (($2+$3)/2):1:(($3-$2)/2):(0.35) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#ccbb44' title "not_alu"
unset output
