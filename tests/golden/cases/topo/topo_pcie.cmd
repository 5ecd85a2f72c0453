args: topo topo/pcie-two-sockets.txt --pcie pcie4
exit: 0
