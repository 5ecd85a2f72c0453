args: collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --explain
exit: 0
