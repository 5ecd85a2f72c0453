args: collective all-reduce --size 1GiB --gpus 8 --wire nvlink4 --algo nvls --json
exit: 0
