args: collective all-reduce --size 1GiB --gpus 8 --wire nvlink-c2c
exit: 2
