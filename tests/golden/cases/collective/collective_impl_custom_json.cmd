args: collective all-reduce --size 512KiB --gpus 8 --wire nvlink4 --impl custom --json
exit: 0
