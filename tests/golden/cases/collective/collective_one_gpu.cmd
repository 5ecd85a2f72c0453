args: collective all-reduce --size 1GiB --gpus 1 --wire nvlink4
exit: 2
