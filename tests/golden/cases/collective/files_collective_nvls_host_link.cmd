args: collective all-reduce --size 1GiB --gpus 8 --wire pcie5 --algo nvls
exit: 2
