args: collective all-reduce --size 1GiB --sweep gpus=2:16:x2 --wire nvlink4
exit: 0
