args: collective all-reduce --gpus 8 --wire nvlink4
exit: 2
