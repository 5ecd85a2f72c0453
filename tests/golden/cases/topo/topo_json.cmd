args: topo topo/pcie-two-sockets.txt --gpu l40s --json
exit: 0
