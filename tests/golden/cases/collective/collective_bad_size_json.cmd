args: collective all-reduce --size 12XB --gpus 8 --wire nvlink4 --json
exit: 2
