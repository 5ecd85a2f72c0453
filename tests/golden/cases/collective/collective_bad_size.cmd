args: collective all-reduce --size 1.5GiB --gpus 8 --wire nvlink4
exit: 2
