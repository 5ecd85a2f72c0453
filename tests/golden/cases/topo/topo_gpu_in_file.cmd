args: topo topo/collect-env-bridged.txt --pcie pcie4
exit: 0
