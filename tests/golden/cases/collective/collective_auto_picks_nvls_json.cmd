args: collective all-reduce --size 64MiB --gpus 8 --wire nvlink4 --json
exit: 0
