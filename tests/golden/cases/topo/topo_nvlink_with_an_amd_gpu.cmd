args: topo topo/nv18-pair.txt --gpu mi300x
exit: 2
