args: collective all-reduce --size 1G --gpus 8 --wire nvlink4 --json
exit: 0
