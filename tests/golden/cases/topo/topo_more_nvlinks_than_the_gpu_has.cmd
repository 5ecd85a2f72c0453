args: topo topo/nv18-pair.txt --gpu a30
exit: 2
