args: collective all-reduce --size 1GiB --gpus 8 --sweep gpus=2:8 --wire nvlink4
exit: 2
