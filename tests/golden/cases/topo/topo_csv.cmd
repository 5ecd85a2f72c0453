args: topo topo/pcie-two-sockets.txt --format csv
exit: 0
