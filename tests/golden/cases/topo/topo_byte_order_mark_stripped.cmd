args: topo topo/bom.txt --gpu l40s
exit: 0
