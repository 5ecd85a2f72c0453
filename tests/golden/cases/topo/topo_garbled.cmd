args: topo topo/garbled.txt
exit: 2
