# weft-plot 0.1.0: stacked energy by category, from tests/fixtures/plot/sgemm.json, tests/fixtures/plot/reduce.json
# Draws the figure on its own (its data are the datablocks below); edit it
# and run `gnuplot THIS.gp`, or `gnuplot -e "outfile='other.png'" THIS.gp`
# (the terminal line sets the format).
if (!exists("outfile")) outfile = "TMP/energy.png"
set encoding utf8
set terminal pngcairo size 800,500 font 'sans,10' noenhanced background rgb '#ffffff'
set output outfile
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set style fill solid 1.0 border lc rgb '#000000'
set title "energy by category"
set ylabel "energy (baseline = 1)"
set yrange [0:*]
set key outside right top vertical invert
set xrange [-0.6:6.6]
set xtics ("fermi-sm" 0, "sgmf-core" 1, "dmt-cgra" 2, "fermi-sm" 4, "sgmf-core" 5, "dmt-cgra" 6)
set xtics rotate by 30 right
set link x2
set x2tics scale 0 ("sgemm" 1, "reduce" 5)
$c0 << EOD
0 0 0.1163054319
1 0 0
2 0 0
4 0 0.1660761192
5 0 0
6 0 0
EOD
$c1 << EOD
0 0.1163054319 0.2322317679
1 0 0
2 0 0
4 0.1660761192 0.3487282697
5 0 0
6 0 0
EOD
$c2 << EOD
0 0.2322317679 0.3338228449
1 0 0.04373227426
2 0 0.04373227426
4 0.3487282697 0.5730440594
5 0 0.02758373964
6 0 0.02712482396
EOD
$c3 << EOD
0 0.3338228449 0.3338228449
1 0.04373227426 0.05360454359
2 0.04373227426 0.1587985882
4 0.5730440594 0.5730440594
5 0.02758373964 0.04013809227
6 0.02712482396 0.1357608192
EOD
$c4 << EOD
0 0.3338228449 0.4084806324
1 0.05360454359 0.9599258255
2 0.1587985882 0.5587396956
4 0.5730440594 0.6269933215
5 0.04013809227 0.1974836257
6 0.1357608192 0.2706973136
EOD
$c5 << EOD
0 0.4084806324 0.4481265748
1 0.9599258255 0.9995717679
2 0.5587396956 0.5983856381
4 0.6269933215 0.6405616562
5 0.1974836257 0.2110519604
6 0.2706973136 0.2708733828
EOD
$c6 << EOD
0 0.4481265748 0.4786002434
1 0.9995717679 1.40238817
2 0.5983856381 0.8490099982
4 0.6405616562 0.6685965713
5 0.2110519604 0.3590576254
6 0.2708733828 0.2861401809
EOD
$c7 << EOD
0 0.4786002434 0.5002050194
1 1.40238817 1.649184863
2 0.8490099982 0.9492683247
4 0.6685965713 0.6842086295
5 0.3590576254 0.3739706362
6 0.2861401809 0.3010531917
EOD
$c8 << EOD
0 0.5002050194 0.808360536
1 1.649184863 1.95734038
2 0.9492683247 1.257423841
4 0.6842086295 0.8354313107
5 0.3739706362 0.5251933174
6 0.3010531917 0.4522758729
EOD
$c9 << EOD
0 0.808360536 0.808360536
1 1.95734038 2.33444446
2 1.257423841 1.62460413
4 0.8354313107 0.8354313107
5 0.5251933174 0.6930193327
6 0.4522758729 0.5961267431
EOD
$c10 << EOD
0 0.808360536 1
1 2.33444446 2.706269853
2 1.62460413 2.160806614
4 0.8354313107 1
5 0.6930193327 1.01657298
6 0.5961267431 0.9102296981
EOD
plot $c0 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#4477aa' title "fetch/decode/schedule", \
     $c1 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#ee6677' title "register files", \
     $c2 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#228833' title "functional units", \
     $c3 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#ccbb44' title "buffers", \
     $c4 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#66ccee' title "interconnect", \
     $c5 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#aa3377' title "shared memory", \
     $c6 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#bbbbbb' title "L1", \
     $c7 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#332288' title "L2", \
     $c8 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#88ccee' title "DRAM", \
     $c9 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#44aa99' title "configuration", \
     $c10 using 1:(($2+$3)/2):(0.35):(($3-$2)/2) with boxxyerror fs solid 0.9 border lc rgb '#000000' lc rgb '#999933' title "static"
unset output
