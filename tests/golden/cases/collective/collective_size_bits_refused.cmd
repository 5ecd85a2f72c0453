args: collective all-reduce --size 1Gb --gpus 8 --wire nvlink4
exit: 2
