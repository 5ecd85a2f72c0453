args: collective all-reduce --size 1GiB --gpus 1000000 --wire nvlink4
exit: 2
