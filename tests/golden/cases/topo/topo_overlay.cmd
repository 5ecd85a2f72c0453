args: topo topo/pcie-two-sockets.txt --gpu l40s --scale-out roce -o /tmp/icx-golden-topo.json --id two-sockets
exit: 0
