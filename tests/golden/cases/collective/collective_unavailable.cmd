args: collective all-reduce --size 64MiB --gpus 8 --wire pcie5
exit: 0
