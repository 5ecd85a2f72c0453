args: topo topo/xgmi-pair.txt --gpu h100-sxm
exit: 2
