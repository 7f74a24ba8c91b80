# weft-plot 0.1.0: CPI stacks, from tests/fixtures/plot/sgemm.json, tests/fixtures/plot/reduce.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/cpi.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "CPI stack"
set ylabel "share of cycles (%)"
set yrange [0:*]
set key outside right top vertical invert
set xrange [-0.6:6.6]
set xtics ("fermi-sm" 0, "sgmf-core" 1, "dmt-cgra" 2, "fermi-sm" 4, "sgmf-core" 5, "dmt-cgra" 6)
set xtics rotate by 30 right
set link x2
set x2tics scale 0 ("sgemm" 1, "reduce" 5)
$c0 << EOD
0 0 24.47361419
1 0 22.58834187
2 0 22.02930667
4 0 43.13028821
5 0 26.90395562
6 0 41.32383869
EOD
$c1 << EOD
0 24.47361419 24.47361419
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 43.13028821 45.95452142
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c2 << EOD
0 24.47361419 31.03363964
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 45.95452142 62.76981876
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c3 << EOD
0 31.03363964 31.1088274
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 62.76981876 63.84068074
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c4 << EOD
0 31.1088274 53.04015563
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 63.84068074 67.39700014
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c5 << EOD
0 53.04015563 55.58669328
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 67.39700014 68.34887746
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c6 << EOD
0 55.58669328 57.21273528
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 68.34887746 75.8449113
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c7 << EOD
0 57.21273528 98.50675168
1 22.58834187 22.58834187
2 22.02930667 22.02930667
4 75.8449113 83.27484256
5 26.90395562 26.90395562
6 41.32383869 41.32383869
EOD
$c8 << EOD
0 98.50675168 98.87799122
1 22.58834187 24.29607863
2 22.02930667 23.78311171
4 83.27484256 87.24099803
5 26.90395562 52.98652641
6 41.32383869 44.32350662
EOD
$c9 << EOD
0 98.87799122 98.89678816
1 24.29607863 24.29607863
2 23.78311171 23.78311171
4 87.24099803 99.8269314
5 52.98652641 52.98652641
6 44.32350662 44.32350662
EOD
$c10 << EOD
0 98.89678816 98.89678816
1 24.29607863 32.42414466
2 23.78311171 32.18903135
4 99.8269314 99.8269314
5 52.98652641 63.63570862
6 44.32350662 60.68331919
EOD
$c11 << EOD
0 98.89678816 98.89678816
1 32.42414466 59.17281776
2 32.18903135 58.88828953
4 99.8269314 99.8269314
5 63.63570862 79.11953311
6 60.68331919 72.50488876
EOD
$c12 << EOD
0 98.89678816 98.89678816
1 59.17281776 100
2 58.88828953 100
4 99.8269314 99.8269314
5 79.11953311 100
6 72.50488876 100
EOD
$c13 << EOD
0 98.89678816 100
1 100 100
2 100 100
4 99.8269314 100
5 100 100
6 100 100
EOD
plot $c0 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#4477aa' title "issue", \
     $c1 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#ee6677' title "divergence", \
     $c2 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#228833' title "dependency", \
     $c3 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#ccbb44' title "pipeline", \
     $c4 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#66ccee' title "shmem", \
     $c5 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#aa3377' title "l1", \
     $c6 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#bbbbbb' title "l2", \
     $c7 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#332288' title "dram", \
     $c8 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#88ccee' title "barrier", \
     $c9 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#44aa99' title "idle", \
     $c10 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#999933' title "ldst", \
     $c11 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#882255' title "fill", \
     $c12 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#dddddd' title "config", \
     $c13 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#117733' title "other (each < 1%)"
unset output
