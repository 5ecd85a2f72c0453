args: collective all-reduce --size 1GiB --gpus 8 --wire nvlink3 --algo nvls
exit: 2
