args: collective all-reduce --size 8B:64MiB --gpus 8 --wire pcie5 --pcie-topology switch
exit: 0
