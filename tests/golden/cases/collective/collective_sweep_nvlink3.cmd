args: collective all-reduce --size 8B:16GiB --gpus 8 --wire nvlink3
exit: 0
